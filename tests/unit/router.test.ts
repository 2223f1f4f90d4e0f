// The one router: polka's table holds every kind of route; the /api/v1 alias is taken off before
// matching; 405's Allow comes from the same table; HEAD is answered only where a head alone can be.
import { describe, expect, test } from 'vitest';
import { loggableUrl, type BridgeRequest } from '../../src/http/adapter.js';
import { Router } from '../../src/http/router.js';
import { RouteTable, unversioned, versioned, type Route } from '../../src/http/routes.js';

const json = (method: Route['method'], path: string): Route => ({ method, path, summary: `${method} ${path}`, handler: () => ({}) });
const routes: Record<string, Route> = {
  things: json('GET', '/api/things'),
  thing: json('GET', '/api/thing/:id'),
  putThing: json('PUT', '/api/thing/:id'),
  deleteThing: json('DELETE', '/api/thing/:id'),
  capture: json('POST', '/api/thing/capture'),
  health: json('GET', '/health'),
  feed: { kind: 'stream', method: 'GET', path: '/api/feed/:name', summary: 'feed', open: () => undefined },
  mcpGet: { kind: 'fetch', method: 'GET', path: '/mcp', summary: 'mcp', handle: () => Promise.resolve(new Response()) },
  mcpPost: { kind: 'fetch', method: 'POST', path: '/mcp', summary: 'mcp', handle: () => Promise.resolve(new Response()) },
  socket: { kind: 'websocket', method: 'GET', path: '/api/sock', summary: 'socket', socket: { message: () => undefined } },
};
const table = new RouteTable();
for (const r of Object.values(routes)) table.add(r);

const request = (method: string, url: string): BridgeRequest => ({
  method,
  url,
  originalUrl: url,
  headers: {},
  ip: '127.0.0.1',
  id: '1',
  aborted: false,
  arrived: Date.now(),
  path: '',
  query: {},
  params: {},
});

describe('the router', () => {
  const router = new Router(table);

  test('every route of every kind is found at its path and at its /api/v1 alias, with its params', () => {
    for (const route of Object.values(routes)) {
      for (const path of [route.path, versioned(route.path)]) {
        if (!path) continue;
        const req = request(route.method, path.replace(/:(\w+)/g, 'v'));
        expect([path, router.route(req)]).toEqual([path, route]);
        expect(req.path).toBe(route.path.replace(/:(\w+)/g, 'v'));
        expect(req.params).toEqual(route.path.includes(':') ? { [route.path.split(':')[1]!]: 'v' } : {});
      }
    }
  });

  test('an /api/v1 path with parameters and a query: alias off, params decoded, query parsed', () => {
    const req = request('PUT', '/api/v1/thing/living%20room?x=1&x=2&y=');
    expect(router.route(req)).toBe(routes.putThing);
    expect(req.url).toBe('/api/thing/living%20room?x=1&x=2&y=');
    expect(req.path).toBe('/api/thing/living%20room');
    expect(req.params).toEqual({ id: 'living room' });
    expect(req.query).toEqual({ x: ['1', '2'], y: '' });
    // A malformed escape stays as it came.
    const bad = request('GET', '/api/thing/%E0%A4%A');
    expect(router.route(bad)).toBe(routes.thing);
    expect(bad.params).toEqual({ id: '%E0%A4%A' });
  });

  test('only /api/v1 itself is the alias: /api/v10 and /apiv1 are other paths', () => {
    expect(unversioned('/api/v1')).toBe('/api');
    expect(unversioned('/api/v1?x=1')).toBe('/api?x=1');
    expect(unversioned('/api/v10/things')).toBe('/api/v10/things');
    expect(unversioned('/apiv1/things')).toBe('/apiv1/things');
    expect(router.route(request('GET', '/api/v10/things'))).toBeUndefined();
    expect(versioned('/health')).toBeUndefined();
    expect(router.route(request('GET', '/api/v1/health'))).toBeUndefined();
  });

  test('the methods a path has come from the same table, for 405 and Allow, at a path with parameters too', () => {
    expect(router.route(request('POST', '/api/v1/thing/x'))).toBeUndefined();
    expect(router.allowed('/api/thing/x')).toEqual(['GET', 'PUT', 'DELETE']);
    // A fixed path and a pattern that both fit: the methods of both.
    expect(router.allowed('/api/thing/capture')).toEqual(['GET', 'POST', 'PUT', 'DELETE']);
    expect(router.allowed('/mcp')).toEqual(['GET', 'POST']);
    expect(router.allowed('/api/feed/x')).toEqual(['GET']);
    expect(router.allowed('/api/sock')).toEqual(['GET']);
    expect(router.allowed('/nowhere')).toEqual([]);
    expect(router.allowed('/api/thing/x/y')).toEqual([]);
  });

  test('HEAD is answered by a JSON GET (and a WebSocket route’s 426), not by a stream or MCP', () => {
    expect(router.route(request('HEAD', '/api/things'))).toBe(routes.things);
    expect(router.route(request('HEAD', '/api/v1/thing/x'))).toBe(routes.thing);
    expect(router.route(request('HEAD', '/api/sock'))).toBe(routes.socket);
    expect(router.route(request('HEAD', '/api/feed/x'))).toBeUndefined();
    expect(router.route(request('HEAD', '/mcp'))).toBeUndefined();
    expect(router.allowed('/mcp')).toEqual(['GET', 'POST']);
  });

  test('a remembered path answers as the first time; a path with parameters gets its own params each time', () => {
    for (let i = 0; i < 2; i++) {
      const req = request('GET', `/api/v1/things?n=${i}`);
      expect(router.route(req)).toBe(routes.things);
      expect([req.path, req.params, req.query]).toEqual(['/api/things', {}, { n: String(i) }]);
      const other = request('GET', `/api/thing/t${i}`);
      expect(router.route(other)).toBe(routes.thing);
      expect(other.params).toEqual({ id: `t${i}` });
    }
    // The same path by another method is another entry.
    expect(router.route(request('POST', '/api/things'))).toBeUndefined();
  });

  test('the path found last is not taken for another method, nor for a path with parameters', () => {
    const sequence: [string, string, Route | undefined, Record<string, string>][] = [
      ['GET', '/mcp', routes.mcpGet, {}],
      ['HEAD', '/mcp', undefined, {}],
      ['POST', '/mcp', routes.mcpPost, {}],
      ['GET', '/mcp', routes.mcpGet, {}],
      ['POST', '/api/thing/capture', routes.capture, {}],
      ['GET', '/api/thing/capture', routes.thing, { id: 'capture' }],
      ['POST', '/api/thing/capture', routes.capture, {}],
      ['PUT', '/api/thing/capture', routes.putThing, { id: 'capture' }],
    ];
    for (const [method, url, route, params] of sequence) {
      const req = request(method, url);
      expect([method, url, router.route(req), req.params]).toEqual([method, url, route, params]);
    }
  });
});

test('the key of the Home Assistant link stays out of logs whatever the case of a path the router matched', () => {
  const table = new RouteTable().add({ kind: 'fetch', method: 'POST', path: '/mcp/ha/:key', summary: 'link', handle: () => Promise.resolve(new Response()) });
  for (const url of ['/mcp/ha/SeCrEt-key_1', '/MCP/HA/SeCrEt-key_1', '/Mcp/Ha/SeCrEt-key_1/']) {
    expect(new Router(table).route(request('POST', url))).toBeDefined();
    expect(loggableUrl(`${url}?a=1`)).not.toContain('SeCrEt');
  }
});
