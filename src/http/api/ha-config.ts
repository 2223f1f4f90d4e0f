// Home Assistant's automations, scripts, helpers and dashboards over REST: thin adapters over the
// same config service the config plugin's tools use (src/ha-config/service.ts), so every rule holds
// here too. REST cannot ask the person: applying takes confirm: true (and preview_id, to apply only
// what was previewed).
import * as v from 'valibot';
import { KINDS } from '../../ha-config/service.js';
import type { Services } from '../../services.js';
import { text, wholeNumber } from '../query.js';
import { jsonRoute, type ResponseSpec, type RouteTable } from '../routes.js';
import * as shape from '../shapes.js';

const kind = v.picklist(KINDS, `must be one of ${KINDS.join(', ')}`);
const itemId = v.pipe(v.string(), v.nonEmpty('must not be empty'), v.maxLength(200, 'is too long: at most 200 characters'));
const reason = v.pipe(v.string(), v.maxLength(500, 'is too long: at most 500 characters'));
const previewId = v.pipe(v.string(), v.regex(/^[0-9a-f]{16}$/, 'must be the preview_id a dry run answered'));
const applyFields = { dry_run: v.optional(v.boolean()), confirm: v.optional(v.boolean()), reason: v.optional(reason), preview_id: v.optional(previewId) };

export const changeSchema = v.strictObject({
  kind,
  op: v.picklist(['create', 'update', 'delete'], 'must be create, update or delete'),
  id: v.optional(itemId),
  config: v.optional(v.record(v.string(), v.unknown())),
  view: v.optional(
    v.union([v.pipe(v.number(), v.integer(), v.minValue(0)), v.pipe(v.string(), v.nonEmpty(), v.maxLength(100))], 'must be a view index or its path or title'),
  ),
  card: v.optional(v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(0, 'must be at least 0'))),
  ...applyFields,
});

const refusals: Record<number, ResponseSpec> = {
  400: { description: 'INVALID_PARAMETERS: a bad request, or Home Assistant refused the config (its reason in plain words, its own in details.hub_message)' },
  403: {
    description:
      'FORBIDDEN: no config scope, read-only mode, CONFIG_EDITING off, a denied or hidden item, entity or action in the config, or a templated action',
  },
  404: { description: 'NOT_FOUND: no such item, view, card or version' },
  409: {
    description:
      'CONFIRMATION_REQUIRED (with the preview: summary, diff, preview_id), CONFLICT (it changed since the preview, it exists, or a YAML-mode dashboard)',
  },
  502: { description: 'HUB_ERROR: Home Assistant did not load what was written; the previous version was put back (details.undone)' },
  503: { description: 'CONNECTION_ERROR: Home Assistant is not reachable' },
};

export function registerHaConfigRoutes(routes: RouteTable, { haConfig }: Services): void {
  routes.add(
    jsonRoute({
      method: 'GET',
      path: '/api/ha-config/:kind',
      summary: "Home Assistant's automations, scripts (each with when it last ran), helpers or dashboards",
      params: v.object({ kind }),
      responses: { 200: { description: 'The items', schema: shape.haConfigList }, 503: refusals[503]! },
      handler: async (req) => ({ items: await haConfig.list(req.params.kind) }),
    }),
  );

  routes.add(
    jsonRoute({
      method: 'GET',
      path: '/api/ha-config/:kind/:id',
      summary: 'One item as Home Assistant stores it (JSON and YAML); helpers are named <type>.<id>, dashboards default or their url_path',
      params: v.object({ kind, id: itemId }),
      responses: { 200: { description: 'The item', schema: shape.haConfigItem }, 403: refusals[403]!, 404: refusals[404]!, 503: refusals[503]! },
      handler: (req) => haConfig.get(req.params.kind, req.params.id),
    }),
  );

  routes.add(
    jsonRoute({
      method: 'GET',
      path: '/api/ha-config/:kind/:id/trace',
      summary: "Why an automation or script did or didn't run: its recent runs from Home Assistant's traces, explained",
      params: v.object({ kind: v.picklist(['automation', 'script'], 'must be automation or script'), id: itemId }),
      query: v.object({ run_id: text() }),
      responses: { 200: { description: 'The explanation', schema: shape.haConfigExplanation }, 404: refusals[404]!, 503: refusals[503]! },
      handler: (req) => haConfig.trace(req.params.kind, req.params.id, req.query.run_id),
    }),
  );

  routes.add(
    jsonRoute({
      method: 'POST',
      path: '/api/ha-config-changes',
      summary: 'Create, update or delete an item (a dashboard view or card); dry_run: true previews the diff; applying needs confirm: true and a reason',
      body: v.pipe(
        changeSchema,
        v.examples([
          {
            kind: 'automation',
            op: 'create',
            config: {
              alias: 'Porch light at dusk',
              triggers: [{ trigger: 'sun', event: 'sunset' }],
              actions: [{ action: 'light.turn_on', target: { entity_id: 'light.porch' } }],
            },
            dry_run: true,
          },
        ]),
      ),
      responses: { 200: { description: 'The preview, or what was done', schema: shape.haConfigOutcome }, ...refusals },
      handler: (req) => {
        const { dry_run, confirm, reason: why, preview_id, ...change } = req.body;
        return haConfig.change(change, req.principal, { dry_run, confirm, reason: why, preview_id });
      },
    }),
  );

  routes.add(
    jsonRoute({
      method: 'GET',
      path: '/api/ha-config-versions',
      summary: 'Kept versions, newest first: of one item (kind and id), or the latest changes of all',
      query: v.object({ kind: v.optional(kind), id: v.optional(itemId), limit: wholeNumber(1, 200, '20') }),
      responses: { 200: { description: 'The versions, each with its diff from the one before', schema: shape.haConfigVersions } },
      handler: (req) => ({ versions: haConfig.history(req.query.kind, req.query.id, req.query.limit) }),
    }),
  );

  const versionParam = v.object({ version: v.pipe(v.string(), v.regex(/^\d{1,12}$/, 'must be a version number'), v.transform(Number)) });
  routes.add(
    jsonRoute({
      method: 'GET',
      path: '/api/ha-config-versions/:version',
      summary: 'One kept version: its config and its diff from the one before',
      params: versionParam,
      responses: { 200: { description: 'The version', schema: shape.haConfigVersion }, 404: refusals[404]! },
      handler: (req) => haConfig.version(req.params.version),
    }),
  );

  routes.add(
    jsonRoute({
      method: 'POST',
      path: '/api/ha-config-versions/:version/restore',
      summary: 'Put a kept version back (kept as a new version); dry_run: true previews it; applying needs confirm: true',
      params: versionParam,
      body: v.optional(v.strictObject(applyFields)),
      responses: { 200: { description: 'The preview, or what was done', schema: shape.haConfigOutcome }, ...refusals },
      handler: (req) => haConfig.restore(req.params.version, req.principal, req.body ?? {}),
    }),
  );
}
