// Home Assistant's automations, scripts, helpers and dashboards: read them, ask why one did not run,
// and change them safely. Every change is previewed as a diff (dry_run), applied only once the
// person confirms it, and kept as a version that config_history lists and config_restore puts back.
// All of it goes through the context's `config` part: the bridge's one config service, which the
// policy checkpoint guards (see README, Config editing).
import { definePlugin, tool, v, type ConfigOutcome, type ToolResult } from 'home-mcp-bridge/plugin';

const KIND = v.picklist(['automation', 'script', 'helper', 'dashboard']);
const id = v.pipe(v.string(), v.nonEmpty(), v.maxLength(200));
const reason = v.pipe(v.string(), v.maxLength(500));
const previewId = v.pipe(v.string(), v.regex(/^[0-9a-f]{16}$/, 'must be the preview_id a dry run answered'));
const anything = v.record(v.string(), v.unknown());

const json = (x: unknown) => JSON.stringify(x);

function outcomeResult(o: ConfigOutcome): ToolResult {
  const head = o.dry_run
    ? `Preview (nothing changed yet). ${o.summary}${o.needs_confirmation.length ? `\nApplying needs the person's confirmation of: ${o.needs_confirmation.join('; ')}. Show them this, then call again without dry_run, with confirm: true, preview_id "${o.preview_id}" and a reason.` : ''}`
    : o.applied
      ? `Done (version ${o.version}). ${o.summary}${o.entity_id ? ` Entity: ${o.entity_id}.` : ''}`
      : o.summary;
  return { content: [{ type: 'text', text: `${head}${o.diff ? `\n\n${o.diff}` : ''}` }], structuredContent: { ...o } };
}

const read = tool({
  name: 'config_read',
  title: 'Read automations, scripts, helpers, dashboards',
  description:
    "Home Assistant's automations, scripts, helpers (input_*, counter, timer) and dashboards. Without id: the list (automations and scripts with when each last ran). With id: one as Home Assistant stores it, YAML and JSON.",
  input: v.object({ kind: KIND, id: v.optional(id) }),
  annotations: { readOnlyHint: true },
  run: async ({ kind, id: itemId }, { config }) => {
    if (itemId === undefined) {
      const items = await config.list(kind);
      const lines = items.map(
        (i) =>
          `${i.id}${i.entity_id && i.entity_id !== i.id ? ` (${i.entity_id})` : ''}: ${i.name}${i.state ? `, ${i.state}` : ''}${i.last_triggered !== undefined ? `, last ran ${i.last_triggered ?? 'never'}` : ''}${i.mode ? `, ${i.mode} mode` : ''}${i.editable ? '' : ', not editable here'}`,
      );
      return { content: [{ type: 'text', text: lines.length ? lines.join('\n') : `No ${kind}s.` }], structuredContent: { items } };
    }
    const item = await config.get(kind, itemId);
    const note = item.mode === 'yaml' ? `\n(YAML mode: Home Assistant reads it from ${item.filename ?? 'a file'}; the bridge cannot change it.)` : '';
    return {
      content: [{ type: 'text', text: `${kind} ${item.id}${item.entity_id ? ` (${item.entity_id})` : ''}:${note}\n${item.yaml || '{}\n'}` }],
      structuredContent: { ...item },
    };
  },
});

const trace = tool({
  name: 'config_trace',
  title: 'Why did (or didn’t) it run?',
  description:
    "An automation's or script's recent runs from Home Assistant's traces, in words: what triggered each, the condition that stopped it or the step that failed; if none ran, why not.",
  input: v.object({ kind: v.picklist(['automation', 'script']), id, run_id: v.optional(v.pipe(v.string(), v.maxLength(64))) }),
  annotations: { readOnlyHint: true },
  run: async ({ kind, id: itemId, run_id }, { config }) => {
    const e = await config.trace(kind, itemId, run_id);
    const runs = e.runs.map((r) => `- ${r.started}${r.trigger ? ` (${r.trigger})` : ''}: ${r.detail}`);
    return { content: [{ type: 'text', text: `${e.why}${runs.length ? `\nRuns, newest first:\n${runs.join('\n')}` : ''}` }], structuredContent: { ...e } };
  },
});

const change = tool({
  name: 'config_change',
  title: 'Change an automation, script, helper or dashboard',
  description:
    "Create, update or delete through Home Assistant's config API. First dry_run: true (a diff), show the person, then apply with confirm, preview_id and reason. config: the whole new item (helpers: fields to change). Helper id: type.id (the type alone to create). Dashboard id: default or url_path; create with view adds a card, else a view; update/delete take view (index, path or title) and card (index).",
  input: v.object({
    kind: KIND,
    op: v.picklist(['create', 'update', 'delete']),
    id: v.optional(id),
    config: v.optional(anything),
    view: v.optional(v.union([v.pipe(v.number(), v.integer(), v.minValue(0)), v.pipe(v.string(), v.maxLength(100))])),
    card: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
    dry_run: v.optional(v.boolean()),
    confirm: v.optional(v.boolean()),
    reason: v.optional(reason),
    preview_id: v.optional(previewId),
  }),
  annotations: { readOnlyHint: false },
  edits: 'config',
  run: async (args, { config }) => outcomeResult(await config.change(args)),
});

const history = tool({
  name: 'config_history',
  title: 'Versions of automations, scripts, helpers, dashboards',
  description:
    'Versions the bridge kept (who, when, why, what changed): of one item (kind, id), else the latest changes; version: one, with its config and diff.',
  input: v.object({ kind: v.optional(KIND), id: v.optional(id), version: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))) }),
  annotations: { readOnlyHint: true },
  run: ({ kind, id: itemId, version }, { config }) => {
    if (version !== undefined) {
      const one = config.version(version);
      return {
        content: [
          {
            type: 'text',
            text: `Version ${one.id} of ${one.kind} ${one.item} (${one.change} ${one.created_at}${one.actor ? ` by ${one.actor}` : ''}${one.reason ? `: ${one.reason}` : ''}):\n${json(one.config)}${one.diff ? `\n\n${one.diff}` : ''}`,
          },
        ],
        structuredContent: { ...one },
      };
    }
    const versions = config.history(kind, itemId);
    const lines = versions.map(
      (x) =>
        `${x.id}: ${x.kind} ${x.item} ${x.change} ${x.created_at}${x.actor ? ` by ${x.actor}` : ''}${x.reason ? ` (${x.reason})` : ''}: ${x.summary ?? x.words.join('; ')}`,
    );
    return { content: [{ type: 'text', text: lines.length ? lines.join('\n') : 'No versions kept yet.' }], structuredContent: { versions } };
  },
});

const restore = tool({
  name: 'config_restore',
  title: 'Put a kept version back',
  description: 'Puts a config_history version back (kept as a new version). First dry_run: true, show the person, then confirm with preview_id and reason.',
  input: v.object({
    version: v.pipe(v.number(), v.integer(), v.minValue(1)),
    dry_run: v.optional(v.boolean()),
    confirm: v.optional(v.boolean()),
    reason: v.optional(reason),
    preview_id: v.optional(previewId),
  }),
  annotations: { readOnlyHint: false },
  edits: 'config',
  run: async ({ version, ...opts }, { config }) => outcomeResult(await config.restore(version, opts)),
});

export default definePlugin({
  name: 'config',
  version: '0.2.0',
  bridge: '^0.2.0',
  description: "Read, explain and safely change Home Assistant's automations, scripts, helpers and dashboards, every version kept.",
  needs: ['config'],
  tools: [read, trace, change, history, restore],
});
