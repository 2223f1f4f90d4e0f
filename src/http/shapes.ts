// The shapes of what the API answers, as valibot schemas: declared on the routes, published in
// the OpenAPI document, and checked against the real answers by the fuzzer. Error bodies are the
// three shapes of error-body.ts (docs/api.md: Errors).
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
  loaded: v.array(
    v.object({
      name: text,
      version: text,
      source: v.picklist(['builtin', 'user']),
      path: text,
      tools: v.array(text),
      deprecated: v.optional(text),
      renamed: v.optional(v.record(v.string(), text)),
      withheld: v.optional(v.array(text)),
    }),
  ),
  failed: v.array(v.object({ path: text, name: v.optional(text), reason: text })),
  disabled: v.array(text),
});
export const toolHealth = v.object({ ...health.entries, plugins: pluginReport, tools: v.number(), mcp: v.object({ sessions: v.number() }) });

export const config = v.object({
  server: v.object({ port: v.number(), host: text, version: text, engine: v.literal('native') }),
  hub: v.object({ url: text, connected: v.boolean(), version: v.nullable(text), mode: text, simulator: v.nullable(json), events: v.nullable(json) }),
  features: v.record(v.string(), v.boolean()),
  security: v.object({ rate_limit: v.object({ max: v.number(), window_ms: v.number() }), body_limit: v.number(), token_ttl: v.number() }),
});

export const token = v.object({ access_token: text, token_type: v.literal('Bearer'), expires_in: v.number() });

// Live events: event subscription, event message, SSE statistics.
const nullableText = v.nullable(text);
const ok = <T extends v.GenericSchema>(data: T) => v.object({ success: v.literal(true), data });
const hubContext = v.object({ id: text, parent_id: nullableText, user_id: nullableText });
export const eventMessage = v.object({ event_type: text, entity_id: nullableText, data: json, origin: text, time_fired: time, context: hubContext });
const subscriptionView = v.object({ subscription_id: text, event_type: nullableText, entity_id: nullableText, domain: nullableText, created_at: time });
export const subscription = ok(subscriptionView);
export const subscriptionList = ok(v.object({ subscriptions: v.array(v.object({ id: text, ...subscriptionView.entries, last_event: v.nullable(time) })) }));
export const eventHistory = ok(v.object({ events: v.array(v.object({ seq: v.number(), ...eventMessage.entries })), next_cursor: nullableText }));
export const streamStats = ok(
  v.object({
    active_connections: v.number(),
    total_events_sent: v.number(),
    events_per_second: v.number(),
    memory_usage: v.number(),
    cpu_usage: v.number(),
    uptime: text,
    event_backlog: v.number(),
  }),
);
const connectionInfo = v.object({
  id: text,
  transport: v.picklist(['sse', 'websocket']),
  client_id: text,
  user_id: text,
  connected_at: time,
  last_event_at: v.nullable(time),
  events_sent: v.number(),
  events_dropped: v.number(),
  subscriptions: v.array(v.object({ id: nullableText, event_type: v.optional(text), entity_id: v.optional(text), domain: v.optional(text) })),
  state: v.picklist(['active', 'behind', 'authenticating']),
  ip_address: text,
  user_agent: text,
  queued_bytes: v.number(),
});
export const streamConnections = ok(v.object({ connections: v.array(connectionInfo), total: v.number() }));
export const streamConnection = ok(v.object({ connection: connectionInfo }));
const minMaxAvg = v.object({ current: v.number(), max: v.number(), average: v.number() });
export const streamMetrics = ok(
  v.object({
    metrics: v.object({
      connections: minMaxAvg,
      events: v.object({ total: v.number(), rate: minMaxAvg }),
      latency: v.object({ p50: v.number(), p95: v.number(), p99: v.number() }),
      resources: v.object({ memory: v.object({ current: v.number(), max: v.number() }), cpu: minMaxAvg }),
    }),
    period: text,
    timestamp: time,
  }),
);
export const streamHistory = ok(
  v.object({
    connections: v.array(
      v.object({
        id: text,
        transport: text,
        client_id: text,
        ip_address: nullableText,
        user_agent: nullableText,
        connected_at: time,
        disconnected_at: time,
        events_sent: v.number(),
        events_dropped: v.number(),
        close_reason: text,
      }),
    ),
    next_cursor: nullableText,
  }),
);

export const bridgeToken = v.object({
  kind: v.literal('bridge_token'),
  id: text,
  name: text,
  created_by: text,
  created_at: time,
  expires_at: time,
  last_used_at: v.nullable(time),
});
export const bridgeTokenCreated = v.object({ ...bridgeToken.entries, token: text });
export const oauthGrant = v.object({
  kind: v.literal('oauth_grant'),
  id: text,
  name: text,
  client_id: text,
  client_name: text,
  scope: v.array(text),
  resource: text,
  created_by: text,
  created_at: time,
  expires_at: time,
  last_used_at: v.nullable(time),
});
export const bridgeTokenList = v.object({ tokens: v.array(v.union([bridgeToken, oauthGrant])) });
export const bridgeTokenRevoked = v.object({ success: v.literal(true), revoked: v.union([bridgeToken, oauthGrant]) });

export const discoveryLink = v.object({
  enabled: v.boolean(),
  path: text,
  scope: v.array(v.picklist(['read', 'control'])),
  created_at: v.nullable(time),
  last_used_at: v.nullable(time),
  peers: v.array(text),
  announcement: v.variant('state', [
    v.object({ state: v.literal('off'), reason: text }),
    v.object({ state: v.literal('pending'), attempt: v.number(), error: v.optional(text) }),
    v.object({ state: v.literal('announced'), uuid: text, at: time, url: text }),
    v.object({ state: v.literal('failed'), error: text }),
  ]),
  home_assistant_api: v.nullable(text),
});

export const confidentialClient = v.object({
  client_id: text,
  client_name: text,
  redirect_uris: v.array(text),
  token_endpoint_auth_method: v.literal('client_secret_post'),
  created_at: time,
  created_by: text,
});
export const confidentialClientMade = v.object({ ...confidentialClient.entries, client_secret: text });
export const confidentialClientList = v.object({ clients: v.array(confidentialClient) });

// --- Home Assistant's config (src/ha-config) ------------------------------------------------------
const configKind = v.picklist(['automation', 'script', 'helper', 'dashboard']);
export const haConfigList = v.object({
  items: v.array(
    v.object({
      kind: configKind,
      id: text,
      entity_id: v.nullable(text),
      name: text,
      state: v.optional(text),
      last_triggered: v.optional(v.nullable(text)),
      mode: v.optional(text),
      editable: v.boolean(),
    }),
  ),
});
export const haConfigItem = v.object({
  kind: configKind,
  id: text,
  entity_id: v.nullable(text),
  config: json,
  yaml: text,
  mode: v.optional(text),
  filename: v.optional(text),
});
export const haConfigExplanation = v.object({
  entity_id: v.nullable(text),
  state: v.nullable(text),
  last_triggered: v.nullable(text),
  why: text,
  runs: v.array(v.object({ run_id: text, started: time, trigger: v.nullable(text), outcome: text, detail: text })),
});
export const haConfigOutcome = v.object({
  kind: configKind,
  id: text,
  entity_id: v.nullable(text),
  change: text,
  dry_run: v.boolean(),
  applied: v.boolean(),
  summary: text,
  words: v.array(text),
  diff: text,
  needs_confirmation: v.array(text),
  preview_id: text,
  effects: v.optional(
    v.array(
      v.object({ entity_id: v.string(), service: text, via: v.optional(text), needs_confirmation: v.optional(v.boolean()), cannot_tell: v.optional(text) }),
    ),
  ),
  may_also_run: v.optional(v.array(v.object({ automation: text, because: text }))),
  version: v.optional(v.number()),
  restored_from: v.optional(v.number()),
});
export const haConfigVersion = v.object({
  id: v.number(),
  kind: configKind,
  item: text,
  config: v.unknown(),
  change: text,
  actor_kind: v.nullable(text),
  actor: v.nullable(text),
  reason: v.nullable(text),
  summary: v.nullable(text),
  restored_from: v.nullable(v.number()),
  created_at: time,
  diff: text,
  words: v.array(text),
});
export const haConfigVersions = v.object({ versions: v.array(haConfigVersion) });
