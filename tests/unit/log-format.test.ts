// Plain log lines (src/log.ts): what a person reads on a terminal and in the add-on's Log tab.
import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, test } from 'vitest';
import { plainDestination, plainLine } from '../../src/log.js';

const line = (entry: Record<string, unknown>) =>
  plainLine(JSON.stringify({ level: 30, time: '2026-11-27T23:01:20.109Z', service: 'home-mcp-bridge', ...entry }));

describe('plain log lines', () => {
  test('time, level, the part in brackets, the message, then only the fields the message does not say', () => {
    expect(line({ part: 'hub', version: '2026.11.0', entities: 45, areas: 8, floors: 2, msg: 'hub connected: Home Assistant 2026.11.0, 45 entities' })).toBe(
      '2026-11-27 23:01:20.109Z INFO  [hub] hub connected: Home Assistant 2026.11.0, 45 entities areas=8 floors=2\n',
    );
    expect(line({ level: 40, host: '0.0.0.0', port: 3000, engine: 'native', msg: 'listening on 0.0.0.0:3000 (uWebSockets.js native engine)' })).toBe(
      '2026-11-27 23:01:20.109Z WARN  listening on 0.0.0.0:3000 (uWebSockets.js native engine)\n',
    );
  });

  test('a number is said only as a word of its own: 2 in "2026" is not said', () => {
    expect(line({ floors: 2, msg: 'Home Assistant 2026.11.0' })).toMatch(/ floors=2\n$/);
  });

  test('values: a plain word bare, text with spaces or quotes in JSON quotes, lists joined, objects as JSON, long ones cut', () => {
    const out = line({ msg: 'm', user: 'admin', name: 'Claude Desktop', loaded: ['alarm', 'app'], scope: { a: 1 }, long: 'x'.repeat(300), ok: true });
    expect(out).toContain(' user=admin name="Claude Desktop" loaded=alarm,app scope={"a":1} ');
    expect(out).toContain(` long=${'x'.repeat(200)}… ok=true`);
  });

  test('an error shows its message on the line; its stack follows, indented, only when asked (debug and trace)', () => {
    const err = { type: 'Error', message: 'boom here', stack: 'Error: boom here\n    at one (a.js:1:1)\n    at two (b.js:2:2)' };
    expect(line({ level: 50, err, msg: 'request failed' })).toBe('2026-11-27 23:01:20.109Z ERROR request failed err="boom here"\n');
    expect(plainLine(JSON.stringify({ level: 50, time: 't', err, msg: 'request failed' }), { stacks: true })).toBe(
      't ERROR request failed err="boom here"\n    at one (a.js:1:1)\n    at two (b.js:2:2)\n',
    );
  });

  test('a message over several lines stays on one; a line that is not JSON passes as it is', () => {
    expect(line({ msg: 'first\n  second' })).toBe('2026-11-27 23:01:20.109Z INFO  first | second\n');
    expect(plainLine('not json')).toBe('not json\n');
  });

  test('through pino: one plain line per call, child bindings included', () => {
    const written: string[] = [];
    const log = pino(
      { level: 'info', base: { service: 'home-mcp-bridge' }, timestamp: pino.stdTimeFunctions.isoTime },
      plainDestination(
        new Writable({
          write: (c, _e, cb) => {
            written.push(String(c));
            cb();
          },
        }) as unknown as { write(line: string): unknown },
      ),
    );
    // A Writable's write takes a callback; plainDestination only needs write(line).
    log.child({ part: 'plugins' }).info({ failed: 0 }, 'plugins: 17 loaded');
    log.debug('not at info');
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}Z INFO {2}\[plugins\] plugins: 17 loaded failed=0\n$/);
  });
});
