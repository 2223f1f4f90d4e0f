// the settings table of docs/settings.md, made from the settings themselves (printed by scripts/settings-table.mjs,
// checked against that page by a test).
import { SETTINGS } from './settings.js';

export function settingsTable(): string {
  const rows = ['| Environment | Config file key | Default | Unit | What it does |', '|---|---|---|---|---|'];
  for (const s of Object.values(SETTINGS) as { env: string; file: string; default?: unknown; unit?: string; description: string }[]) {
    const def =
      s.default === undefined
        ? '(unset)'
        : Array.isArray(s.default)
          ? s.default.length
            ? `\`${s.default.join(',')}\``
            : '(none)'
          : `\`${String(s.default)}\``;
    rows.push(`| \`${s.env}\` | \`${s.file}\` | ${def} | ${s.unit ?? ''} | ${s.description} |`);
  }
  return rows.join('\n');
}
