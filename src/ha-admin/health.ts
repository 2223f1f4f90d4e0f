// Home Assistant's repairs and error log, said in words: an issue explained from its translation
// key and placeholders (the bridge has no copy of Home Assistant's translations, so it names what
// it knows), and the log summarised by integration with the newest lines first.
import type { Json } from './hub-admin.js';

const SEVERITY: Record<string, string> = { critical: 'Critical', error: 'Error', warning: 'Warning' };

/** One repair in a sentence: which integration, how serious, what it is about and whether it can be fixed in Home Assistant. */
export function explainIssue(i: Json): string {
  const placeholders = (i.translation_placeholders ?? {}) as Record<string, string>;
  const about = String(i.translation_key ?? i.issue_id).replace(/_/g, ' ');
  const named = Object.entries(placeholders)
    .map(([k, v]) => `${k.replace(/_/g, ' ')}: ${v}`)
    .join(', ');
  const breaks = i.breaks_in_ha_version ? `; it stops working in Home Assistant ${String(i.breaks_in_ha_version)}` : '';
  const fix = i.is_fixable ? '; Home Assistant can fix it (Settings → Repairs)' : '';
  const more = i.learn_more_url ? `; more at ${String(i.learn_more_url)}` : '';
  return `${SEVERITY[String(i.severity)] ?? 'Issue'} in ${String(i.domain)}: ${about}${named ? ` (${named})` : ''}${breaks}${fix}${more}${i.ignored ? ' (dismissed)' : ''}`;
}

/** The integration a logger belongs to: homeassistant.components.<domain>, or custom_components.<domain>. */
export function integrationOf(logger: string): string {
  const m = /^(?:homeassistant\.components|custom_components)\.([a-z0-9_]+)/.exec(logger);
  return m ? m[1]! : logger.startsWith('homeassistant') ? 'core' : logger;
}

export interface LogSummary {
  integration: string;
  errors: number;
  warnings: number;
  /** Occurrences, repeats included. */
  count: number;
  newest: { level: string; when: string; message: string; source: string }[];
}

/** system_log/list by integration, the one with most errors first; each with its newest lines (at most `lines`). */
export function summariseLog(entries: readonly Json[], lines = 3): LogSummary[] {
  const by = new Map<string, { s: LogSummary; at: number[] }>();
  for (const e of entries) {
    const integration = integrationOf(String(e.name ?? ''));
    let g = by.get(integration);
    if (!g) by.set(integration, (g = { s: { integration, errors: 0, warnings: 0, count: 0, newest: [] }, at: [] }));
    const count = typeof e.count === 'number' ? e.count : 1;
    const level = String(e.level ?? 'ERROR');
    if (level === 'WARNING') g.s.warnings += count;
    else g.s.errors += count;
    g.s.count += count;
    const ts = typeof e.timestamp === 'number' ? e.timestamp : 0;
    const source = Array.isArray(e.source) ? `${String(e.source[0])}:${String(e.source[1])}` : '';
    const message = (Array.isArray(e.message) ? e.message : [e.message]).map(String).join(' / ');
    g.s.newest.push({ level, when: new Date(ts * 1000).toISOString(), message: message.slice(0, 500), source });
    g.at.push(ts);
  }
  return [...by.values()]
    .map(({ s, at }) => {
      const order = s.newest.map((n, i) => [n, at[i]!] as const).sort((a, b) => b[1] - a[1]);
      return { ...s, newest: order.slice(0, lines).map(([n]) => n) };
    })
    .sort((a, b) => b.errors - a.errors || b.count - a.count || (a.integration < b.integration ? -1 : 1));
}
