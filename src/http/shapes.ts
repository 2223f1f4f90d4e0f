// The shapes of what the API answers, as valibot schemas: declared on the routes, published in
// the OpenAPI document, and checked against the real answers by the fuzzer. Error bodies are the
// three of the interface (part 7).
import * as v from 'valibot';

const text = v.string();
const time = v.string();
const json = v.record(v.string(), v.unknown());

export const coreError = v.object({ error: v.literal(true), code: text, message: text, details: json });
export const rateLimited = v.object({ error: v.literal(true), code: v.literal('RATE_LIMITED'), message: text, reset: v.number() });
export const sseError = v.object({ success: v.literal(false), message: text, error_code: text });

export const deviceState = v.object({
  entity_id: text,
  state: text,
  attributes: json,
  last_changed: time,
  last_updated: time,
  area_id: v.nullable(text),
  area: v.nullable(text),
});
export const deviceListing = v.object({ devices: v.array(v.object({ id: text, state: text, attributes: json })) });

const verification = {
  verified: v.optional(v.boolean()),
  pending: v.optional(v.boolean()),
  expected: v.optional(json),
  actual: v.optional(json),
};

export const actionOutcome = v.object({
  success: v.literal(true),
  entity_id: text,
  action: text,
  service: text,
  parameters: json,
  state: v.nullable(deviceState),
  ...verification,
});

const actionResult = v.object({
  entity_id: text,
  action: text,
  status: v.picklist(['completed', 'failed']),
  state: v.optional(v.nullable(text)),
  error: v.optional(v.object({ code: text, message: text })),
});

export const scene = v.object({
  id: text,
  name: text,
  description: v.nullable(text),
  actions: v.array(v.object({ entity_id: text, action: text, parameters: json })),
  created_at: time,
  updated_at: time,
});
export const sceneList = v.object({ scenes: v.array(scene) });
export const activation = v.object({ success: v.boolean(), scene: text, name: text, results: v.array(actionResult) });

export const group = v.object({ id: text, name: text, entities: v.array(text), created_at: time, updated_at: time });
export const groupView = v.object({ ...group.entries, expanded_entities: v.array(text) });
export const groupList = v.object({ groups: v.array(group) });
export const groupControl = v.object({ success: v.boolean(), group: text, action: text, results: v.array(actionResult) });

export const deleted = v.object({ success: v.literal(true), deleted: text });

export const health = v.object({
  status: v.picklist(['healthy', 'degraded']),
  version: text,
  uptime: v.number(),
  hub: v.object({ connected: v.boolean(), version: v.nullable(text) }),
});

const pluginReport = v.object({
  loaded: v.array(v.object({ name: text, version: text, source: v.picklist(['builtin', 'user']), path: text, tools: v.array(text) })),
  failed: v.array(v.object({ path: text, name: v.optional(text), reason: text })),
  disabled: v.array(text),
});
export const toolHealth = v.object({ ...health.entries, plugins: pluginReport, tools: v.number() });

export const config = v.object({
  server: v.object({ port: v.number(), host: text, version: text, engine: v.picklist(['native', 'fallback']) }),
  hub: v.object({ url: text, connected: v.boolean(), version: v.nullable(text), mode: text, simulator: v.nullable(json), events: v.nullable(json) }),
  features: v.record(v.string(), v.boolean()),
  security: v.object({ rate_limit: v.object({ max: v.number(), window_ms: v.number() }), body_limit: v.number(), token_ttl: v.number() }),
});

export const token = v.object({ access_token: text, token_type: v.literal('Bearer'), expires_in: v.number() });
