// Energy: the home's energy dashboard settings (energy/get_prefs) and, for a period, the totals the
// dashboard shows: electricity from and to the grid, solar production, battery charge and
// discharge, gas and water, and the home's consumption from them, each the change of its
// statistic's `sum` over the period in long-term statistics (recorder/statistics_during_period,
// per hour, day or month as the dashboard asks). Read only. Both shapes of a grid source are read:
// flow_from/flow_to (before 2025) and the single connection of 2026.
import { definePlugin, type Home, type HubQuestion, localTime, PluginError, startOf, tool, v } from 'home-mcp-bridge/plugin';

type Prefs = {
  energy_sources?: Record<string, unknown>[];
  device_consumption?: Record<string, unknown>[];
  device_consumption_water?: Record<string, unknown>[];
};

const FLOWS = ['grid_import', 'grid_export', 'solar_production', 'battery_discharge', 'battery_charge', 'gas', 'water', 'home_meter'] as const;
type Flow = (typeof FLOWS)[number];
/** Flows counted in kWh; gas and water keep their meters' unit (m³, ft³, ..., or kWh for gas counted as energy). */
const ELECTRIC: readonly Flow[] = ['grid_import', 'grid_export', 'solar_production', 'battery_discharge', 'battery_charge', 'home_meter'];
const KWH: Record<string, number> = {
  Wh: 0.001,
  kWh: 1,
  MWh: 1000,
  GWh: 1_000_000,
  MJ: 1 / 3.6,
  GJ: 1000 / 3.6,
  cal: 1.163e-6,
  kcal: 1.163e-3,
  Mcal: 1.163,
  Gcal: 1163,
};

const str = (x: unknown) => (typeof x === 'string' && x ? x : undefined);

/** Each flow's statistics, as the preferences name them. */
function flowsOf(prefs: Prefs): { flow: Flow; statistic_id: string; name?: string }[] {
  const out: { flow: Flow; statistic_id: string; name?: string }[] = [];
  const add = (flow: Flow, id: unknown, name?: unknown) => {
    const s = str(id);
    if (s) out.push({ flow, statistic_id: s, ...(str(name) ? { name: str(name) } : {}) });
  };
  for (const src of prefs.energy_sources ?? []) {
    switch (src.type) {
      case 'grid':
        add('grid_import', src.stat_energy_from, src.name);
        add('grid_export', src.stat_energy_to, src.name);
        for (const f of Array.isArray(src.flow_from) ? src.flow_from : []) add('grid_import', (f as Record<string, unknown>).stat_energy_from);
        for (const f of Array.isArray(src.flow_to) ? src.flow_to : []) add('grid_export', (f as Record<string, unknown>).stat_energy_to);
        break;
      case 'solar':
        add('solar_production', src.stat_energy_from, src.name);
        break;
      case 'battery':
        add('battery_discharge', src.stat_energy_from, src.name);
        add('battery_charge', src.stat_energy_to, src.name);
        break;
      case 'gas':
        add('gas', src.stat_energy_from, src.name);
        break;
      case 'water':
        add('water', src.stat_energy_from, src.name);
        break;
      case 'home':
        add('home_meter', src.stat_energy_to, src.name);
        break;
    }
  }
  return out;
}

/** A statistic the caller may read: an external one (domain:name), or an entity they can see. */
const readable = (home: Home, id: string) => id.includes(':') || home.has(id);

async function ask<T>(home: Home, question: HubQuestion): Promise<T> {
  try {
    return await home.read<T>(question);
  } catch (err) {
    const code = (err as { details?: { hub_code?: unknown } }).details?.hub_code;
    if (code === 'unknown_command')
      throw new PluginError(
        `Home Assistant does not answer ${question.type}: its ${question.type.split('/')[0]} integration is not loaded (add "${question.type.split('/')[0]}:" or "default_config:" to its configuration.yaml)`,
        {},
        'HUB_ERROR',
        501,
      );
    if (code === 'not_found' && question.type === 'energy/get_prefs')
      throw new PluginError('The energy dashboard is not set up in Home Assistant (no energy preferences saved): nothing to total', {}, 'NOT_FOUND', 404);
    throw err;
  }
}

const PERIODS = ['today', 'yesterday', 'this_week', 'last_week', 'this_month', 'last_month', 'this_year', 'last_year'] as const;
type Named = (typeof PERIODS)[number];

/** A named period's bounds in the home's zone, and the statistics' step the dashboard uses for it. */
function named(p: Named, now: number, tz: string | undefined): { start: number; end: number; step: 'hour' | 'day' | 'month' } {
  const [which, unit] = p === 'today' ? ['this', 'day'] : p === 'yesterday' ? ['last', 'day'] : (p.split('_') as [string, string]);
  const u = unit as 'day' | 'week' | 'month' | 'year';
  const shift = which === 'last' ? -1 : 0;
  const start = startOf(u, now, tz, shift);
  const end = which === 'last' ? startOf(u, now, tz) : Math.min(now, startOf(u, now, tz, 1));
  return { start, end, step: u === 'day' ? 'hour' : u === 'year' ? 'month' : 'day' };
}

const when = v.pipe(
  v.string(),
  v.maxLength(40),
  v.check((s) => !Number.isNaN(Date.parse(s)), 'must be a date and time such as 2026-11-01T00:00:00+01:00'),
);
const round = (x: number) => Math.round(x * 1000) / 1000;

/** structuredContent: {prefs, sources} or {start, end, step, totals: {flow: {value, unit}}, statistics, devices}; kept loose, as the tool list must stay small. */
const output = v.record(v.string(), v.unknown());

const energy = tool({
  name: 'energy',
  title: 'Energy',
  description:
    'The energy dashboard’s sources (prefs), or its totals for a period (default today, home time zone): consumption, grid import/export, solar, battery, gas, water, devices, with units.',
  input: v.object({
    operation: v.picklist(['prefs', 'totals']),
    period: v.optional(v.picklist(PERIODS)),
    start: v.optional(when),
    end: v.optional(when),
  }),
  output,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  run: async (args, { home }) => {
    if (args.operation === 'prefs' && (args.period ?? args.start ?? args.end) !== undefined)
      throw new PluginError('period, start and end go with totals, not with prefs', {
        field: args.period !== undefined ? 'period' : args.start !== undefined ? 'start' : 'end',
      });
    if (args.period !== undefined && (args.start ?? args.end) !== undefined) throw new PluginError('give period or start/end, not both', { field: 'period' });
    const prefs = await ask<Prefs>(home, { type: 'energy/get_prefs' });
    const flows = flowsOf(prefs).filter((f) => readable(home, f.statistic_id));
    const devices = [...(prefs.device_consumption ?? []), ...(prefs.device_consumption_water ?? [])]
      .map((d) => ({ statistic_id: str(d.stat_consumption) ?? '', ...(str(d.name) ? { name: str(d.name) } : {}) }))
      .filter((d) => d.statistic_id && readable(home, d.statistic_id));
    const unitOf = (id: string) => str(home.state(id)?.attributes.unit_of_measurement) ?? null;

    if (args.operation === 'prefs') {
      const lines = flows.map(
        (f) => `${f.flow.replace(/_/g, ' ')}: ${f.statistic_id}${f.name ? ` (${f.name})` : ''}${unitOf(f.statistic_id) ? `, ${unitOf(f.statistic_id)}` : ''}`,
      );
      const text = [
        lines.length ? lines.join('\n') : 'The energy dashboard has no sources set up.',
        devices.length ? `Devices: ${devices.map((d) => d.name ?? d.statistic_id).join(', ')}.` : '',
      ]
        .filter(Boolean)
        .join('\n');
      return { content: [{ type: 'text', text }], structuredContent: { prefs: prefs as Record<string, unknown>, sources: flows } };
    }

    const tz = home.config?.time_zone;
    let w: { start: number; end: number; step: 'hour' | 'day' | 'month' };
    if (args.start !== undefined || args.end !== undefined) {
      const end = args.end ? Date.parse(args.end) : Date.now();
      const start = args.start ? Date.parse(args.start) : startOf('day', end, tz);
      if (start >= end) throw new PluginError('start: must be before end', { field: 'start' });
      w = { start, end, step: 'hour' };
    } else w = named(args.period ?? 'today', Date.now(), tz);

    const ids = [...new Set([...flows.map((f) => f.statistic_id), ...devices.map((d) => d.statistic_id)])];
    const rows = ids.length
      ? await ask<Record<string, { change?: number | null }[]>>(home, {
          type: 'recorder/statistics_during_period',
          start_time: new Date(w.start).toISOString(),
          end_time: new Date(w.end).toISOString(),
          statistic_ids: ids,
          period: w.step,
          types: ['change'],
        })
      : {};
    const change = (id: string): number | null => {
      const list = rows[id];
      if (!list?.length) return null;
      return list.reduce((sum, r) => sum + (typeof r.change === 'number' ? r.change : 0), 0);
    };

    const totals: Record<string, { value: number; unit: string }> = {};
    const stats = flows.map((f) => ({ ...f, change: change(f.statistic_id), unit: unitOf(f.statistic_id) }));
    const notes: string[] = [];
    for (const flow of FLOWS) {
      const mine = stats.filter((s) => s.flow === flow && s.change !== null);
      if (!mine.length) continue;
      const electric = ELECTRIC.includes(flow) || mine.every((s) => s.unit !== null && s.unit in KWH);
      if (electric) {
        const unknown = mine.filter((s) => s.unit === null || !(s.unit in KWH));
        if (unknown.length) notes.push(`${unknown.map((s) => s.statistic_id).join(', ')}: unit ${unknown[0]!.unit ?? 'unknown'}, left out of ${flow}`);
        const known = mine.filter((s) => s.unit !== null && s.unit in KWH);
        if (known.length) totals[flow] = { value: round(known.reduce((t, s) => t + s.change! * KWH[s.unit!]!, 0)), unit: 'kWh' };
      } else {
        const units = [...new Set(mine.map((s) => s.unit ?? 'unknown'))];
        if (units.length === 1) totals[flow] = { value: round(mine.reduce((t, s) => t + s.change!, 0)), unit: units[0]! };
        else notes.push(`${flow}: meters in different units (${units.join(', ')}), see each statistic`);
      }
    }
    // What the home used: from the grid and the sun and the battery, less what went back out.
    const kwh = (f: Flow) => totals[f]?.value ?? 0;
    if (totals.grid_import || totals.solar_production || totals.battery_discharge)
      totals.consumption = {
        value: round(kwh('grid_import') + kwh('solar_production') + kwh('battery_discharge') - kwh('grid_export') - kwh('battery_charge')),
        unit: 'kWh',
      };
    const deviceRows = devices.map((d) => ({ ...d, flow: 'device', change: change(d.statistic_id), unit: unitOf(d.statistic_id) }));

    const period = `${localTime(w.start, tz)} to ${localTime(w.end, tz)}`;
    const order = ['consumption', ...FLOWS];
    const lines = order.filter((k) => totals[k]).map((k) => `${k.replace(/_/g, ' ')}: ${totals[k]!.value} ${totals[k]!.unit}`);
    const deviceLines = deviceRows.filter((d) => d.change !== null).map((d) => `${d.name ?? d.statistic_id}: ${round(d.change!)}${d.unit ? ` ${d.unit}` : ''}`);
    const text = [
      `Energy ${period}:`,
      ...(lines.length ? lines : [`No statistics recorded for the dashboard's sources (${ids.join(', ') || 'none set up'}) in that period.`]),
      ...(deviceLines.length ? [`Devices: ${deviceLines.join('; ')}`] : []),
      ...notes,
    ].join('\n');
    return {
      content: [{ type: 'text', text }],
      structuredContent: {
        start: localTime(w.start, tz),
        end: localTime(w.end, tz),
        step: w.step,
        totals,
        statistics: stats.map((s) => ({ ...s, change: s.change === null ? null : round(s.change) })),
        devices: deviceRows.map((d) => ({ ...d, change: d.change === null ? null : round(d.change) })),
      },
    };
  },
});

export default definePlugin({
  name: 'energy',
  version: '0.2.0',
  bridge: '^0.2.0',
  description: 'The energy dashboard’s sources and its totals for a period, from long-term statistics.',
  needs: ['home'],
  words: new URL('./words/', import.meta.url),
  // Offered where Home Assistant has its energy integration loaded (energy: or default_config:), as
  // get_config's components say; a hub that has it but no saved preferences answers NOT_FOUND, saying so.
  available: (home) => {
    const loaded = home.config?.components;
    return Array.isArray(loaded) && loaded.includes('energy');
  },
  tools: [energy],
});
