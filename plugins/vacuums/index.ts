// Vacuums: start, pause, stop, return to the dock, locate, spot clean, fan speed.
import { actOutput, definePlugin, misplaced, targetFields, text, tool, v } from 'home-mcp-bridge/plugin';
import type { EntityState, ToolResult } from 'home-mcp-bridge/plugin';

/**
 * The runs a client with MCP's tasks extension can follow to their end: a cleaning run until the
 * vacuum is back (docked or idle), the way home until docked; cancelling one does `stop` with it.
 */
const RUNS: Partial<Record<string, { until: readonly string[]; ms: number; stop: string }>> = {
  start: { until: ['docked', 'idle', 'error'], ms: 4 * 3_600_000, stop: 'return_to_base' },
  return_to_base: { until: ['docked', 'idle', 'error'], ms: 15 * 60_000, stop: 'stop' },
};
const where = (s: EntityState | undefined) => (s ? `${s.entity_id} ${s.state}` : '');
const idsOf = (r: ToolResult) => ((r.structuredContent as { entities?: { entity_id: string }[] } | undefined)?.entities ?? []).map((e) => e.entity_id);

export default definePlugin({
  name: 'vacuums',
  version: '0.2.0',
  bridge: '^0.2.0',
  description: 'Start, pause and dock robot vacuums; set their suction.',
  needs: ['home'],
  domains: ['vacuum'],
  words: new URL('./words/', import.meta.url),
  tools: [
    tool({
      name: 'control_vacuums',
      title: 'Control vacuums',
      description: 'Vacuums: start, pause, stop, return_to_base (dock), locate, clean_spot, or set_fan_speed with fan_speed (one the vacuum lists).',
      input: v.object({
        ...targetFields('vacuum'),
        command: v.picklist(['start', 'pause', 'stop', 'return_to_base', 'locate', 'clean_spot', 'set_fan_speed']),
        fan_speed: v.optional(v.pipe(v.string(), v.maxLength(64))),
      }),
      output: actOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      task: 'optional',
      run: async (args, { home, client }) => {
        const wrong = misplaced(args, args.command, { fan_speed: ['set_fan_speed'] });
        if (wrong) return wrong;
        if (args.command === 'set_fan_speed' && args.fan_speed === undefined) return text('set_fan_speed needs fan_speed.', true);
        const data = args.command === 'set_fan_speed' ? { fan_speed: args.fan_speed } : {};
        const done = await home.act({ domain: 'vacuum', service: args.command, data, entity_id: args.entity_id, area: args.area, dry_run: args.dry_run });
        const run = RUNS[args.command];
        if (!run || args.dry_run || done.isError) return done;
        const ids = idsOf(done);
        const over = (st: EntityState | undefined) => !st || run.until.includes(st.state);
        // A caller that cannot follow a task has its answer once the vacuum is on its way, as before.
        if (ids.every((id) => over(home.state(id))) || !client.background()) return done;
        const ended = await home.waitFor(ids, (states) => states.every(over), {
          timeoutMs: run.ms,
          signal: client.signal,
          changed: (states) => void client.progress(states.filter(over).length, ids.length, states.map(where).join(', ')),
        });
        const now = () => ids.map((id) => where(home.state(id))).join(', ');
        if (client.signal.aborted) {
          await home.act({ domain: 'vacuum', service: run.stop, entity_id: ids });
          return text(`Cancelled (${run.stop}): ${now()}`);
        }
        return ended ? { ...done, content: [{ type: 'text', text: `Done: ${now()}` }] } : text(`Still going after ${run.ms / 60_000} minutes: ${now()}`, true);
      },
    }),
  ],
});
