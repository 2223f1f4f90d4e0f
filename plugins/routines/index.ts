// Prompt templates for the routines a home has, filled from live hub data: what is on, open,
// unlocked and how warm it is, so the assistant starts from the home as it is.
import { definePlugin, prompt, type Home, type PromptMessage } from 'home-mcp-bridge/plugin';

const ids = (home: Home, domain: string, states?: string[]) =>
  home
    .states(domain)
    .filter((s) => !states || states.includes(s.state))
    .map((s) => s.entity_id);
const list = (xs: string[]) => (xs.length ? xs.join(', ') : 'none');
/** Every entity of a domain with its state: "lock.front_door locked, ...". */
const statesOf = (home: Home, domain: string) => list(home.states(domain).map((s) => `${s.entity_id} ${s.state}`));
const climate = (home: Home) =>
  home
    .states('climate')
    .map(
      (s) =>
        `${s.entity_id} ${s.state}, now ${String(s.attributes.current_temperature ?? '?')}, target ${String(s.attributes.temperature ?? `${String(s.attributes.target_temp_low ?? '?')}-${String(s.attributes.target_temp_high ?? '?')}`)}`,
    )
    .join('; ') || 'none';
const say = (text: string): { messages: PromptMessage[] } => ({ messages: [{ role: 'user', content: { type: 'text', text } }] });

export default definePlugin({
  name: 'routines',
  version: '0.2.0',
  bridge: '^0.2.0',
  description: 'Prompt templates for morning and evening routines, saving energy, security, climate, media and troubleshooting.',
  needs: ['home'],
  prompts: [
    prompt({
      name: 'morning_routine',
      title: 'Morning routine',
      description: 'Plan a morning: lights, blinds, heating and media for getting up.',
      arguments: [{ name: 'wake_time', description: 'When the household gets up, e.g. 07:00' }],
      get: (args, { home }) =>
        say(
          `Help me set up the morning${args.wake_time ? ` for ${args.wake_time}` : ''}. Closed covers: ${list(ids(home, 'cover', ['closed']))}. Lights on: ${list(ids(home, 'light', ['on']))}. Thermostats: ${climate(home)}. Suggest what to open, switch on and warm up, then do it with the tools once I agree.`,
        ),
    }),
    prompt({
      name: 'evening_routine',
      title: 'Evening routine',
      description: 'Wind the home down for the night: lights, locks, covers, alarm.',
      get: (_a, { home }) =>
        say(
          `Get the home ready for the night. Lights on: ${list(ids(home, 'light', ['on']))}. Unlocked: ${list(ids(home, 'lock', ['unlocked', 'open']))}. Open covers: ${list(ids(home, 'cover', ['open']))}. Alarm: ${statesOf(home, 'alarm_control_panel')}. Propose the steps, then carry them out with the tools once I agree.`,
        ),
    }),
    prompt({
      name: 'energy_saving',
      title: 'Save energy',
      description: 'Find what is on that need not be, and thermostats that could be set back.',
      get: (_a, { home }) =>
        say(
          `Where can the home save energy right now? On: lights ${list(ids(home, 'light', ['on']))}; switches ${list(ids(home, 'switch', ['on']))}; media ${list(ids(home, 'media_player', ['on', 'playing', 'paused', 'idle']))}. Thermostats: ${climate(home)}. List what to turn off or set back and why.`,
        ),
    }),
    prompt({
      name: 'security_setup',
      title: 'Secure the home',
      description: 'Check locks, doors, covers and the alarm before leaving or sleeping.',
      arguments: [{ name: 'leaving', description: '"yes" when everyone is leaving' }],
      get: (args, { home }) =>
        say(
          `${args.leaving === 'yes' ? 'Everyone is leaving.' : 'Check the home is secure.'} Locks: ${statesOf(home, 'lock')}. Open covers: ${list(ids(home, 'cover', ['open', 'opening']))}. Alarm panels: ${statesOf(home, 'alarm_control_panel')}. Say what is not secure and what you would do; unlocking and disarming need my confirmation.`,
        ),
    }),
    prompt({
      name: 'climate_optimisation',
      title: 'Optimise heating and cooling',
      description: 'Review thermostats and suggest settings for comfort and economy.',
      arguments: [{ name: 'target_temperature', description: 'The temperature you want, e.g. 21' }],
      get: (args, { home }) =>
        say(
          `Review the thermostats${args.target_temperature ? ` for a comfortable ${args.target_temperature}°` : ''}: ${climate(home)}. Open covers (heat loss or gain): ${list(ids(home, 'cover', ['open']))}. Suggest settings per room, then apply them with control_climate once I agree.`,
        ),
    }),
    prompt({
      name: 'media_control',
      title: 'Media',
      description: 'What is playing where, and what to play next.',
      arguments: [{ name: 'area', description: 'The room, e.g. living room' }],
      get: (args, { home }) => {
        const areaId = args.area ? home.areaIdFor(args.area) : undefined;
        const players = home.states('media_player').filter((s) => !args.area || (areaId !== undefined && home.areaOf(s.entity_id)?.area_id === areaId));
        return say(
          `Media players${args.area ? ` in ${args.area}` : ''}: ${list(players.map((s) => `${s.entity_id} ${s.state}${s.attributes.media_title ? ` (${String(s.attributes.media_title)})` : ''}, volume ${String(s.attributes.volume_level ?? '?')}`))}. Help me control them with control_media.`,
        );
      },
    }),
    prompt({
      name: 'troubleshooting',
      title: 'Troubleshoot a device',
      description: 'Look into an entity that does not do what it should.',
      arguments: [{ name: 'entity_id', description: 'The entity, e.g. light.kitchen', required: true }],
      get: (args, { home }) => {
        const s = home.state(args.entity_id!);
        if (!s) throw home.unknownEntity(args.entity_id!);
        return say(
          `${s.entity_id} is ${s.state} (last changed ${s.last_changed}) with attributes ${JSON.stringify(s.attributes)}. Area: ${home.areaOf(s.entity_id)?.name ?? 'none'}. Help me find out why it is not doing what I expect: check availability, supported features and recent changes, and try a harmless test action with my agreement.`,
        );
      },
    }),
  ],
});
