// Prompt templates for the routines a home has, filled from live hub data: what is on, open,
// unlocked and how warm it is, so the assistant starts from the home as it is.
import { AppError, definePlugin, promptsWith, type PromptMessage } from '../../src/plugins/api.js';

const needs = ['hub', 'guard'] as const;
const prompt = promptsWith(needs);

type Services = Parameters<Parameters<typeof prompt>[0]['get']>[1]['services'];
type Hub = Pick<Services['hub'], 'registries' | 'cache'>;
/** The hub as the prompts may show it: only the entities callers may see (TOOLS_EXPOSED_ONLY). */
const seen = ({ hub, guard }: Services): Hub =>
  ({
    registries: hub.registries,
    cache: { all: () => [...hub.cache.all()].filter((s) => guard.maySee(s.entity_id)), get: (id: string) => (guard.maySee(id) ? hub.cache.get(id) : undefined) },
  }) as unknown as Hub;
const ids = (hub: Hub, domain: string, states?: string[]) =>
  [...hub.cache.all()].filter((s) => s.entity_id.startsWith(`${domain}.`) && (!states || states.includes(s.state))).map((s) => s.entity_id);
const list = (xs: string[]) => (xs.length ? xs.join(', ') : 'none');
/** Every entity of a domain with its state: "lock.front_door locked, ...". */
const statesOf = (hub: Hub, domain: string) => list([...hub.cache.all()].filter((s) => s.entity_id.startsWith(`${domain}.`)).map((s) => `${s.entity_id} ${s.state}`));
const climate = (hub: Hub) =>
  [...hub.cache.all()]
    .filter((s) => s.entity_id.startsWith('climate.'))
    .map((s) => `${s.entity_id} ${s.state}, now ${String(s.attributes.current_temperature ?? '?')}, target ${String(s.attributes.temperature ?? `${String(s.attributes.target_temp_low ?? '?')}-${String(s.attributes.target_temp_high ?? '?')}`)}`)
    .join('; ') || 'none';
const say = (text: string): { messages: PromptMessage[] } => ({ messages: [{ role: 'user', content: { type: 'text', text } }] });

export default definePlugin({
  name: 'routines',
  version: '0.1.0',
  description: 'Prompt templates for morning and evening routines, saving energy, security, climate, media and troubleshooting.',
  needs,
  prompts: [
    prompt({
      name: 'morning_routine',
      title: 'Morning routine',
      description: 'Plan a morning: lights, blinds, heating and media for getting up.',
      arguments: [{ name: 'wake_time', description: 'When the household gets up, e.g. 07:00' }],
      get: (args, { services }) =>
        say(`Help me set up the morning${args.wake_time ? ` for ${args.wake_time}` : ''}. Closed covers: ${list(ids(seen(services), 'cover', ['closed']))}. Lights on: ${list(ids(seen(services), 'light', ['on']))}. Thermostats: ${climate(seen(services))}. Suggest what to open, switch on and warm up, then do it with the tools once I agree.`),
    }),
    prompt({
      name: 'evening_routine',
      title: 'Evening routine',
      description: 'Wind the home down for the night: lights, locks, covers, alarm.',
      get: (_a, { services }) =>
        say(`Get the home ready for the night. Lights on: ${list(ids(seen(services), 'light', ['on']))}. Unlocked: ${list(ids(seen(services), 'lock', ['unlocked', 'open']))}. Open covers: ${list(ids(seen(services), 'cover', ['open']))}. Alarm: ${statesOf(seen(services), 'alarm_control_panel')}. Propose the steps, then carry them out with the tools once I agree.`),
    }),
    prompt({
      name: 'energy_saving',
      title: 'Save energy',
      description: 'Find what is on that need not be, and thermostats that could be set back.',
      get: (_a, { services }) =>
        say(`Where can the home save energy right now? On: lights ${list(ids(seen(services), 'light', ['on']))}; switches ${list(ids(seen(services), 'switch', ['on']))}; media ${list(ids(seen(services), 'media_player', ['on', 'playing', 'paused', 'idle']))}. Thermostats: ${climate(seen(services))}. List what to turn off or set back and why.`),
    }),
    prompt({
      name: 'security_setup',
      title: 'Secure the home',
      description: 'Check locks, doors, covers and the alarm before leaving or sleeping.',
      arguments: [{ name: 'leaving', description: '"yes" when everyone is leaving' }],
      get: (args, { services }) =>
        say(`${args.leaving === 'yes' ? 'Everyone is leaving.' : 'Check the home is secure.'} Locks: ${statesOf(seen(services), 'lock')}. Open covers: ${list(ids(seen(services), 'cover', ['open', 'opening']))}. Alarm panels: ${statesOf(seen(services), 'alarm_control_panel')}. Say what is not secure and what you would do; unlocking and disarming need my confirmation.`),
    }),
    prompt({
      name: 'climate_optimisation',
      title: 'Optimise heating and cooling',
      description: 'Review thermostats and suggest settings for comfort and economy.',
      arguments: [{ name: 'target_temperature', description: 'The temperature you want, e.g. 21' }],
      get: (args, { services }) =>
        say(`Review the thermostats${args.target_temperature ? ` for a comfortable ${args.target_temperature}°` : ''}: ${climate(seen(services))}. Open covers (heat loss or gain): ${list(ids(seen(services), 'cover', ['open']))}. Suggest settings per room, then apply them with control_climate once I agree.`),
    }),
    prompt({
      name: 'media_control',
      title: 'Media',
      description: 'What is playing where, and what to play next.',
      arguments: [{ name: 'area', description: 'The room, e.g. living room' }],
      get: (args, { services }) => {
        const hub = seen(services);
        const players = [...hub.cache.all()].filter((s) => s.entity_id.startsWith('media_player.') && (!args.area || hub.registries.areaOf(s.entity_id)?.name.toLowerCase() === args.area.toLowerCase()));
        return say(`Media players${args.area ? ` in ${args.area}` : ''}: ${list(players.map((s) => `${s.entity_id} ${s.state}${s.attributes.media_title ? ` (${String(s.attributes.media_title)})` : ''}, volume ${String(s.attributes.volume_level ?? '?')}`))}. Help me control them with control_media.`);
      },
    }),
    prompt({
      name: 'troubleshooting',
      title: 'Troubleshoot a device',
      description: 'Look into an entity that does not do what it should.',
      arguments: [{ name: 'entity_id', description: 'The entity, e.g. light.kitchen', required: true }],
      get: (args, { services }) => {
        const hub = seen(services);
        const s = hub.cache.get(args.entity_id!);
        if (!s) throw new AppError('INVALID_ENTITY', 404, `No entity ${args.entity_id}`, { entity_id: args.entity_id });
        return say(`${s.entity_id} is ${s.state} (last changed ${s.last_changed}) with attributes ${JSON.stringify(s.attributes)}. Area: ${hub.registries.areaOf(s.entity_id)?.name ?? 'none'}. Help me find out why it is not doing what I expect: check availability, supported features and recent changes, and try a harmless test action with my agreement.`);
      },
    }),
  ],
});
