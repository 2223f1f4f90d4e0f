// Live events over HTTP: stored subscriptions and the history as JSON routes, the two SSE streams
// and the two WebSocket addresses as native uWS routes. All of them are thin adapters over the
// live events' parts (history, stored subscriptions, fan-out) and the WebSocket channel.
import * as v from 'valibot';
import { fromCursor, toCursor } from '../../cursor.js';
import { badRequest } from '../../errors.js';
import type { Services } from '../../services.js';
import type { EventFilter } from '../../events/filter.js';
import { filterQuery, filterSchema } from '../../stream/filters.js';
import type { ResponseAdapter } from '../adapter.js';
import { choice, text, wholeNumber } from '../query.js';
import { jsonRoute, reply, type ApiRequest, type RouteTable } from '../routes.js';
import { socketHandlers, SseSink } from '../stream-sinks.js';
import * as shape from '../shapes.js';

const subscriptionId = v.pipe(v.string('must be a string'), v.nonEmpty('must not be empty'), v.maxLength(128, 'is too long: at most 128 characters'));

const instant = v.optional(
  v.pipe(
    v.string('must be given once'),
    v.check((s) => !Number.isNaN(Date.parse(s)), 'must be an ISO 8601 time such as 2026-11-23T08:00:00Z'),
    v.transform((s) => Date.parse(s)),
  ),
);

/** Last-Event-ID as the EventSource standard sends it (header), or as a query parameter. */
const lastEventIdQuery = v.optional(v.pipe(v.string('must be given once'), v.regex(/^\d{1,15}$/, 'must be the id of an event frame (a whole number)')));

function lastEventId(req: ApiRequest<undefined, { last_event_id?: string }>): number | undefined {
  const raw = req.query.last_event_id ?? req.headers['last-event-id'];
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d{1,15}$/.test(raw)) throw badRequest('Last-Event-ID must be the id of an event frame (a whole number)', { field: 'Last-Event-ID' });
  return Number(raw);
}

const streamResponses = {
  200: {
    description:
      'text/event-stream: `retry:`, an `event: connected` frame, then one frame per event (`id:` the history sequence, `data:` the event message); `: keep-alive` every 15 s; `event: notice` (rate limit, truncated replay); `event: close` with the reason when the bridge ends the stream',
    contentType: 'text/event-stream',
  },
  400: { description: 'A malformed filter or Last-Event-ID', schema: shape.sseError },
  503: { description: 'OVERLOADED: SSE_MAX_CONNECTIONS streams are open', schema: shape.sseError },
};

export function registerEventRoutes(routes: RouteTable, { events, sockets, config }: Services): void {
  routes.add(
    jsonRoute({
      method: 'POST',
      path: '/api/events/subscribe',
      summary: 'Store a subscription {event_type?, entity_id?, domain?} for this client (the token subject); its SSE streams without filters deliver it',
      body: v.pipe(filterSchema, v.examples([{ event_type: 'state_changed', domain: 'light' }, { entity_id: 'lock.front_door' }])),
      responses: {
        200: { description: 'Stored (the contract answers a creation with 200)', schema: shape.subscription },
        409: { description: 'CONFLICT: this client has a subscription with these filters' },
        429: { description: 'SUBSCRIPTION_LIMIT: EVENT_SUB_MAX_SUBSCRIPTIONS reached' },
      },
      handler: (req) => reply(200, { success: true, data: events.subscriptions.subscribe(req.principal!.sub, req.body as EventFilter) }),
    }),
  );

  routes.add(
    jsonRoute({
      method: 'DELETE',
      path: '/api/events/unsubscribe',
      summary: 'Remove one of this client’s subscriptions: subscription_id in the JSON body or the query',
      query: v.object({ subscription_id: v.optional(subscriptionId) }),
      body: v.optional(v.strictObject({ subscription_id: v.optional(subscriptionId) }, 'must be an object with only subscription_id')),
      responses: { 200: { description: 'Removed', schema: shape.subscription }, 404: { description: 'NOT_FOUND: no such subscription of this client' } },
      handler: (req) => {
        const id = req.body?.subscription_id ?? req.query.subscription_id;
        if (!id) throw badRequest('subscription_id is required, in the JSON body or the query', { field: 'subscription_id' });
        return { success: true, data: events.subscriptions.unsubscribe(req.principal!.sub, id) };
      },
    }),
  );

  routes.add({
    method: 'GET',
    path: '/api/events/subscriptions',
    summary: 'This client’s stored subscriptions, each with the time of its latest matching event',
    responses: { 200: { description: 'The subscriptions', schema: shape.subscriptionList } },
    handler: (req) => ({ success: true, data: { subscriptions: events.subscriptions.list(req.principal!.sub) } }),
  });

  routes.add(
    jsonRoute({
      method: 'GET',
      path: '/api/events/history',
      summary: 'Past events, newest first (order=asc for oldest first): filters, since/until (ISO 8601), limit (1-1000, default 100), cursor from next_cursor',
      query: v.object({
        ...filterQuery,
        since: instant,
        until: instant,
        limit: wholeNumber(1, 1000, '100'),
        cursor: text(),
        order: choice(['asc', 'desc'], 'must be asc or desc'),
      }),
      responses: { 200: { description: 'A page of events with their sequence numbers (the SSE ids)', schema: shape.eventHistory } },
      handler: (req) => {
        const q = req.query;
        const order = q.order ?? 'desc';
        const position = q.cursor ? fromCursor(q.cursor, ['number', 'string']) : undefined;
        if (position && position[1] !== order) throw badRequest('cursor belongs to the other order: keep order the same across pages', { field: 'cursor' });
        const filter: EventFilter = { event_type: q.event_type, entity_id: q.entity_id, domain: q.domain };
        const rows = events.history.read({
          filters: [filter],
          since: q.since,
          until: q.until,
          after: position?.[0] as number | undefined,
          order,
          limit: q.limit + 1,
        });
        const page = rows.slice(0, q.limit);
        const next = rows.length > q.limit ? toCursor([page.at(-1)!.seq, order]) : null;
        // Stored messages are JSON already; each is parsed once to add its sequence number.
        return { success: true, data: { events: page.map((r) => ({ seq: r.seq, ...(JSON.parse(r.message) as object) })), next_cursor: next } };
      },
    }),
  );

  const openStream = (req: ApiRequest<undefined, EventFilter & { last_event_id?: string }>, res: ResponseAdapter) => {
    // Checked before the response is touched, so a refusal still answers in the SSE error shape.
    const lastId = lastEventId(req);
    events.fanOut.openSse(new SseSink(res), {
      client: req.principal!.sub,
      principal: req.principal,
      ip: req.ip,
      userAgent: req.headers['user-agent'] ?? '',
      filter: { event_type: req.query.event_type, entity_id: req.query.entity_id, domain: req.query.domain },
      lastEventId: lastId,
    });
  };

  routes.add({
    kind: 'stream',
    method: 'GET',
    path: '/api/events/stream',
    summary:
      'SSE stream of event messages: with filters, those; without, this client’s stored subscriptions (every event while it has none). Resumes after Last-Event-ID',
    errorShape: 'sse',
    query: v.object({ ...filterQuery, last_event_id: lastEventIdQuery }),
    responses: streamResponses,
    open: openStream,
  });

  routes.add({
    kind: 'stream',
    method: 'GET',
    path: '/subscribe_events',
    summary: 'The same SSE stream, for clients that cannot set headers: the token may come as ?token= (the only HTTP route that takes it there)',
    errorShape: 'sse',
    queryToken: true,
    query: v.object({ token: text(), ...filterQuery, last_event_id: lastEventIdQuery }),
    responses: streamResponses,
    open: openStream,
  });

  // uWS holds at most the stream buffer limit for one socket: a client that never reads cannot grow memory past it.
  const socket = socketHandlers(sockets, config.streamBufferLimit);
  for (const path of ['/api/ws', '/ws']) {
    routes.add({
      kind: 'websocket',
      method: 'GET',
      path,
      summary:
        'WebSocket channel: token in the Authorization header, ?token=, or a first {type: "auth", token} message within 10 s; then JSON messages with type and id',
      queryToken: true,
      tokenLater: true,
      query: v.object({ token: text() }),
      socket,
    });
  }
}
