// Statistics of the live streams (docs/events.md, statistics): wrapped as
// {success, data}; errors in the SSE shape {success: false, message, error_code}.
import * as v from 'valibot';
import type { Services } from '../../services.js';
import { PERIODS, type Period } from '../../stream/metrics.js';
import { text, wholeNumber } from '../query.js';
import { jsonRoute, type RouteTable } from '../routes.js';
import * as shape from '../shapes.js';

const periods = Object.keys(PERIODS) as Period[];

export function registerStreamStatsRoutes(routes: RouteTable, { streamMetrics: m }: Services): void {
  routes.add({
    method: 'GET',
    path: '/api/sse/stats',
    summary: 'Live statistics of the event streams (SSE and WebSocket)',
    errorShape: 'sse',
    responses: { 200: { description: 'Statistics', schema: shape.streamStats } },
    handler: () => ({ success: true, data: m.stats() }),
  });

  routes.add({
    method: 'GET',
    path: '/api/sse/connections',
    summary: 'The open SSE and WebSocket connections',
    errorShape: 'sse',
    responses: { 200: { description: 'Connections', schema: shape.streamConnections } },
    handler: () => {
      const connections = m.connections();
      return { success: true, data: { connections, total: connections.length } };
    },
  });

  routes.add(
    jsonRoute({
      method: 'GET',
      path: '/api/sse/connections/:connection_id',
      summary: 'One open connection',
      errorShape: 'sse',
      params: v.object({ connection_id: v.pipe(v.string(), v.maxLength(128, 'is too long: at most 128 characters')) }),
      responses: {
        200: { description: 'The connection', schema: shape.streamConnection },
        404: { description: 'NOT_FOUND: no open connection with this id', schema: shape.sseError },
      },
      handler: (req) => ({ success: true, data: { connection: m.connection(req.params.connection_id) } }),
    }),
  );

  routes.add(
    jsonRoute({
      method: 'GET',
      path: '/api/sse/metrics',
      summary: `Metrics over a period (${periods.join(', ')}; default 1h), from samples kept in the database`,
      errorShape: 'sse',
      query: v.object({ period: v.optional(v.picklist(periods, `must be one of ${periods.join(', ')}`), '1h') }),
      responses: { 200: { description: 'Metrics', schema: shape.streamMetrics }, 400: { description: 'An unknown period', schema: shape.sseError } },
      handler: (req) => ({ success: true, data: m.metrics(req.query.period) }),
    }),
  );

  routes.add(
    jsonRoute({
      method: 'GET',
      path: '/api/sse/history',
      summary: 'Connections that have ended, newest first: when, how many events, why they closed; limit (1-1000, default 100) and cursor',
      errorShape: 'sse',
      query: v.object({
        limit: wholeNumber(1, 1000, '100'),
        cursor: text(),
      }),
      responses: { 200: { description: 'A page of past connections', schema: shape.streamHistory } },
      handler: (req) => ({ success: true, data: m.history(req.query.limit, req.query.cursor) }),
    }),
  );
}
