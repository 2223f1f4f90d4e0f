import { describe, expect, test } from 'vitest';
import { explainIssue, integrationOf, summariseLog } from '../../src/ha-admin/health.js';

describe('the error log by integration', () => {
  test('loggers map to integrations; repeats count; most errors first; newest lines first, at most three', () => {
    expect(integrationOf('homeassistant.components.met.coordinator')).toBe('met');
    expect(integrationOf('custom_components.hacs')).toBe('hacs');
    expect(integrationOf('homeassistant.setup')).toBe('core');
    expect(integrationOf('aiohttp.server')).toBe('aiohttp.server');
    const line = (name: string, level: string, timestamp: number, count = 1, message = `m${timestamp}`) => ({
      name,
      level,
      timestamp,
      count,
      message: [message],
      source: ['x.py', 1],
    });
    const out = summariseLog([
      line('homeassistant.components.sensor', 'WARNING', 50, 4),
      line('homeassistant.components.met', 'ERROR', 10, 12),
      line('homeassistant.components.met', 'ERROR', 30),
      line('homeassistant.components.met', 'WARNING', 20),
      line('homeassistant.components.met', 'ERROR', 40),
      line('homeassistant.components.zha', 'ERROR', 5),
    ]);
    expect(out.map((g) => [g.integration, g.errors, g.warnings, g.count])).toEqual([
      ['met', 14, 1, 15],
      ['zha', 1, 0, 1],
      ['sensor', 0, 4, 4],
    ]);
    expect(out[0]!.newest.map((n) => n.message)).toEqual(['m40', 'm30', 'm20']);
    expect(out[0]!.newest[0]).toMatchObject({ level: 'ERROR', when: new Date(40_000).toISOString(), source: 'x.py:1' });
  });
});

describe('a repair in a sentence', () => {
  test('integration, severity, what, placeholders, whether Home Assistant fixes it, its link, dismissed', () => {
    expect(
      explainIssue({
        domain: 'met',
        issue_id: 'cannot_connect',
        severity: 'error',
        translation_key: 'cannot_connect',
        translation_placeholders: { title: 'Forecast' },
        is_fixable: true,
        learn_more_url: 'https://example.org/met',
        breaks_in_ha_version: '2027.1.0',
        ignored: true,
      }),
    ).toBe(
      'Error in met: cannot connect (title: Forecast); it stops working in Home Assistant 2027.1.0; Home Assistant can fix it (Settings → Repairs); more at https://example.org/met (dismissed)',
    );
    expect(explainIssue({ domain: 'demo', issue_id: 'x', severity: 'warning', translation_key: null, is_fixable: false })).toBe('Warning in demo: x');
  });
});
