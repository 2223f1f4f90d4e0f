// Looking after Home Assistant itself: areas, floors, labels, devices, entities (and their exposure
// to Assist) and zones; its health (system health, repairs, the error log, integrations); and its
// blueprints; its updates, backups, restarts and reloads, and its apps (admin_system: backups, updates
// and restarts run as MCP tasks for a client that takes them). Offered only while ADMIN_TOOLS is on and to callers with the admin scope. Every change
// goes through the context's `admin` part: previewed (dry_run), confirmed like a config change, and
// kept as a version that `undo` puts back where Home Assistant can take it back.
import { definePlugin, tool, v, type AdminItem, type ConfigOutcome, type ToolResult } from 'home-mcp-bridge/plugin';

const id = v.pipe(v.string(), v.nonEmpty(), v.maxLength(200));
const reason = v.pipe(v.string(), v.maxLength(500));
const previewId = v.pipe(v.string(), v.regex(/^[0-9a-f]{16}$/, 'must be the preview_id a dry run answered'));
const version = v.pipe(v.number(), v.integer(), v.minValue(1));
const asking = { dry_run: v.optional(v.boolean()), confirm: v.optional(v.boolean()), reason: v.optional(reason), preview_id: v.optional(previewId) };

function outcomeResult(o: ConfigOutcome): ToolResult {
  const head = o.dry_run
    ? `Preview (nothing changed yet). ${o.summary}${o.needs_confirmation.length ? `\nApplying needs the person's confirmation of: ${o.needs_confirmation.join('; ')}. Show them this, then call again without dry_run, with confirm: true, preview_id "${o.preview_id}" and a reason.` : ''}`
    : o.applied
      ? `Done${o.version ? ` (version ${o.version}; undo puts it back)` : ''}. ${o.summary}`
      : o.summary;
  return { content: [{ type: 'text', text: `${head}${o.diff ? `\n\n${o.diff}` : ''}` }], structuredContent: { ...o } };
}

const short = (x: unknown) => (Array.isArray(x) ? (x.length ? x.join('|') : null) : x);
function itemLine(i: AdminItem): string {
  const fields = Object.entries(i.fields)
    .filter(([k, x]) => k !== 'name' && short(x) !== null && x !== false)
    .map(([k, x]) => `${k}=${String(short(x))}`);
  const info = Object.entries(i.info ?? {}).map(([k, x]) => `${k}=${String(x)}`);
  return `${i.id}: ${i.name}${fields.length || info.length ? ` (${[...fields, ...info].join(', ')})` : ''}`;
}
const listResult = (kind: string, items: AdminItem[]): ToolResult => ({
  content: [{ type: 'text', text: items.length ? items.map(itemLine).join('\n') : `No ${kind}s.` }],
  structuredContent: { items },
});

const registry = tool({
  name: 'admin_registry',
  title: 'Areas, floors, labels, devices, entities, zones',
  description:
    "Home Assistant's registries and zones. list; create/update/delete (area, floor, label, zone); update (device, entity: name, area_id, labels, disabled, hidden, exposed to Assist). fields: the fields to set. history/undo: kept versions of every admin change. Changes: dry_run first, then confirm with preview_id and reason.",
  input: v.object({
    operation: v.picklist(['list', 'create', 'update', 'delete', 'history', 'undo']),
    kind: v.optional(v.picklist(['area', 'floor', 'label', 'device', 'entity', 'zone', 'integration', 'repair'])),
    id: v.optional(id),
    fields: v.optional(v.record(v.string(), v.unknown())),
    version: v.optional(version),
    ...asking,
  }),
  annotations: { readOnlyHint: false, destructiveHint: true },
  edits: 'admin',
  run: async ({ operation, kind, id: itemId, fields, version: ver, ...opts }, { admin }) => {
    if (operation === 'history') {
      const versions = admin.history(kind, itemId);
      const lines = versions.map(
        (x) =>
          `${x.id}: ${x.kind} ${x.item} ${x.change} ${x.created_at}${x.actor ? ` by ${x.actor}` : ''}${x.reason ? ` (${x.reason})` : ''}: ${x.summary ?? ''}`,
      );
      return { content: [{ type: 'text', text: lines.length ? lines.join('\n') : 'No admin changes kept yet.' }], structuredContent: { versions } };
    }
    if (operation === 'undo') {
      if (ver === undefined)
        return { isError: true, content: [{ type: 'text', text: 'version: say which kept version to put back (operation history lists them)' }] };
      return outcomeResult(await admin.restore(ver, opts));
    }
    if (!kind) return { isError: true, content: [{ type: 'text', text: 'kind: say what to look at: area, floor, label, device, entity or zone' }] };
    if (operation === 'list') return listResult(kind, await admin.list(kind));
    return outcomeResult(await admin.change({ kind, op: operation, ...(itemId !== undefined ? { id: itemId } : {}), ...(fields ? { fields } : {}), ...opts }));
  },
});

const health = tool({
  name: 'admin_health',
  title: "Home Assistant's health",
  description:
    'overview: system health, repairs explained, the error log by integration (newest lines), integrations not running. integrations: every one with its state. dismiss/restore: a repair (id domain/issue_id). reload/disable/enable: an integration entry (id entry_id). Changes: dry_run, then confirm.',
  input: v.object({
    operation: v.picklist(['overview', 'integrations', 'dismiss', 'restore', 'reload', 'disable', 'enable']),
    id: v.optional(id),
    ...asking,
  }),
  annotations: { readOnlyHint: false },
  edits: 'admin',
  run: async ({ operation, id: itemId, ...opts }, { admin }) => {
    if (operation === 'overview') {
      const h = await admin.health();
      const lines = [
        ...(Object.entries(h.system.homeassistant ?? {}).length
          ? [`Home Assistant ${String(h.system.homeassistant?.version ?? '')} (${String(h.system.homeassistant?.installation_type ?? '')})`]
          : []),
        `Repairs: ${h.repairs.length ? '' : 'none'}`,
        ...h.repairs.map((r) => `- ${r.domain}/${r.issue_id}: ${r.explanation}`),
        `Error log: ${h.log.length ? '' : 'empty'}`,
        ...h.log.map((g) => `- ${g.integration}: ${g.errors} errors, ${g.warnings} warnings; newest: ${g.newest[0]?.message ?? ''}`),
        `Integrations not running: ${h.troubled.length ? '' : 'none'}`,
        ...h.troubled.map(itemLine).map((l) => `- ${l}`),
      ];
      return { content: [{ type: 'text', text: lines.join('\n') }], structuredContent: { ...h } };
    }
    if (operation === 'integrations') return listResult('integration', await admin.list('integration'));
    if (operation === 'dismiss' || operation === 'restore')
      return outcomeResult(
        await admin.change({
          kind: 'repair',
          op: 'update',
          ...(itemId !== undefined ? { id: itemId } : {}),
          fields: { ignored: operation === 'dismiss' },
          ...opts,
        }),
      );
    if (operation === 'reload')
      return outcomeResult(await admin.change({ kind: 'integration', op: 'reload', ...(itemId !== undefined ? { id: itemId } : {}), ...opts }));
    return outcomeResult(
      await admin.change({
        kind: 'integration',
        op: 'update',
        ...(itemId !== undefined ? { id: itemId } : {}),
        fields: { disabled: operation === 'disable' },
        ...opts,
      }),
    );
  },
});

const blueprint = tool({
  name: 'admin_blueprint',
  title: 'Blueprints',
  description:
    "list: Home Assistant's blueprints (domain automation or script) with their inputs. use: create an automation or script from one through config editing (path, name, inputs); dry_run first, then confirm with preview_id and reason.",
  input: v.object({
    operation: v.picklist(['list', 'use']),
    domain: v.optional(v.picklist(['automation', 'script'])),
    path: v.optional(v.pipe(v.string(), v.nonEmpty(), v.maxLength(300))),
    name: v.optional(v.pipe(v.string(), v.nonEmpty(), v.maxLength(200))),
    inputs: v.optional(v.record(v.string(), v.unknown())),
    ...asking,
  }),
  annotations: { readOnlyHint: false },
  edits: 'admin',
  run: async ({ operation, domain = 'automation', path, name, inputs, ...opts }, { admin, config }) => {
    const found = await admin.blueprints(domain);
    if (operation === 'list') {
      const lines = found.map(
        (b) => `${b.path}: ${b.name}${b.description ? ` (${b.description})` : ''}; inputs: ${Object.keys(b.inputs).join(', ') || 'none'}`,
      );
      return { content: [{ type: 'text', text: lines.length ? lines.join('\n') : `No ${domain} blueprints.` }], structuredContent: { blueprints: found } };
    }
    const bp = found.find((b) => b.path === path);
    if (!bp)
      return {
        isError: true,
        content: [
          {
            type: 'text',
            text: `path: Home Assistant has no ${domain} blueprint ${path ?? '(none given)'}; it has ${found.map((b) => b.path).join(', ') || 'none'}`,
          },
        ],
      };
    const alias = name ?? bp.name;
    return outcomeResult(
      await config.change({ kind: domain, op: 'create', config: { alias, use_blueprint: { path: bp.path, input: inputs ?? {} } }, ...opts }),
    );
  },
});

const slug = v.pipe(v.string(), v.regex(/^[a-z0-9_-]{1,64}$/, 'must be an app slug (operation apps lists them)'));
const system = tool({
  name: 'admin_system',
  title: 'Updates, backups, restarts, apps',
  description:
    'updates / release_notes (entity_id); backup (name; homeassistant, apps, folders: what it holds, default all); install (entity_id, version) after a fresh backup; restart_core, reload_core (the preview says what goes away and for how long); apps; start_app, stop_app, restart_app (app). Changes: dry_run first, then confirm with preview_id and reason.',
  input: v.object({
    operation: v.picklist(['updates', 'release_notes', 'backup', 'install', 'restart_core', 'reload_core', 'apps', 'start_app', 'stop_app', 'restart_app']),
    entity_id: v.optional(v.pipe(v.string(), v.regex(/^update\.[a-z0-9_]+$/, 'must be an update entity (update.…)'))),
    version: v.optional(v.pipe(v.string(), v.nonEmpty(), v.maxLength(100))),
    app: v.optional(slug),
    name: v.optional(v.pipe(v.string(), v.nonEmpty(), v.maxLength(100))),
    homeassistant: v.optional(v.boolean()),
    apps: v.optional(v.array(slug)),
    folders: v.optional(v.array(v.pipe(v.string(), v.maxLength(40)))),
    ...asking,
  }),
  annotations: { readOnlyHint: false, destructiveHint: true },
  edits: 'admin',
  task: 'optional',
  run: async ({ operation, ...args }, { admin }) => {
    if (operation === 'updates') {
      const updates = admin.updates();
      const lines = updates.map(
        (u) =>
          `${u.entity_id}: ${u.title} ${u.installed_version ?? '?'}${u.available ? ` -> ${u.latest_version ?? '?'}` : ' (up to date)'}${u.in_progress ? ' installing' : ''}${u.release_url ? ` notes ${u.release_url}` : ''}${u.available && !u.can_install ? ' (not installable here)' : ''}`,
      );
      return { content: [{ type: 'text', text: lines.length ? lines.join('\n') : 'Home Assistant offers no updates.' }], structuredContent: { updates } };
    }
    if (operation === 'release_notes') {
      if (!args.entity_id) return { isError: true, content: [{ type: 'text', text: 'entity_id: say which update (operation updates lists them)' }] };
      const { update, notes } = await admin.releaseNotes(args.entity_id);
      const text =
        notes ?? `${update.release_summary ?? 'No release notes in Home Assistant.'}${update.release_url ? `\nRelease notes: ${update.release_url}` : ''}`;
      return { content: [{ type: 'text', text }], structuredContent: { update, notes } };
    }
    if (operation === 'apps') {
      const apps = await admin.apps();
      const lines = apps.map((a) => `${a.slug}: ${a.name} ${a.version} ${a.state}${a.update_available ? ` (update ${a.version_latest ?? ''})` : ''}`);
      return { content: [{ type: 'text', text: lines.length ? lines.join('\n') : 'No apps installed.' }], structuredContent: { apps } };
    }
    const done = await admin.system({ op: operation, ...args });
    const head = outcomeResult(done);
    return done.result ? { ...head, structuredContent: { ...done } } : head;
  },
});

export default definePlugin({
  name: 'admin',
  version: '0.2.0',
  bridge: '^0.2.0',
  description:
    'Look after Home Assistant itself: registries, zones, health, integrations, blueprints, updates, backups, restarts and apps, every change previewed and confirmed (and kept, where it can be put back).',
  needs: ['admin', 'config'],
  tools: [registry, health, blueprint, system],
});
