// The simulator's render_template (src/sim/template.ts): the common forms rendered as Home
// Assistant 2026.11 renders them (checked against it: tests/parity/cases.ts holds the shared ones),
// and an error for every form it does not know, never a value the real hub would not give.
import { describe, expect, test } from 'vitest';
import { renderTemplate } from '@home-mcp-bridge/sim/testing';

const STATES: Record<string, { state: string; attributes: Record<string, unknown> }> = {
  'sensor.outside': { state: '12.3', attributes: { unit_of_measurement: '°C' } },
  'light.bed_light': { state: 'on', attributes: { brightness: 180, friendly_name: 'Bed Light' } },
  'climate.hvac': { state: 'cool', attributes: { temperature: 21.5 } },
};
const hub = {
  state: (id: string) => (STATES[id] ? { ...STATES[id]!, entityId: id } : undefined),
  timeZone: 'Europe/Amsterdam',
  // 2026-11-28 01:02:03.5 UTC: 02:02 in Amsterdam.
  now: () => new Date(Date.UTC(2026, 10, 28, 1, 2, 3, 500)),
};
const render = (t: string) => renderTemplate(t, hub);

describe('the forms the simulator renders', () => {
  test.each<[string, unknown]>([
    ["{{ states('light.bed_light') }}", 'on'],
    ["{{ states('sensor.nowhere') }}", 'unknown'],
    ["{{ state_attr('light.bed_light', 'brightness') }}", 180],
    ["{{ state_attr('light.bed_light', 'nothing') }}", null],
    ["{{ is_state('light.bed_light', 'on') }}", true],
    ["{{ states('sensor.outside') | float + 1 }}", 13.3],
    ["{{ states('sensor.outside') | float | round }}", 12],
    ['{{ 1.25 | round(1) }}', 1.2],
    ['{{ 2.5 | round }} {{ 3.5 | round }}', '2 4'],
    ['{{ 7 / 2 }}|{{ 7 // 2 }}|{{ 10 % 3 }}', '3.5|3|1'],
    ["{{ 'x' ~ 1.0 }} {{ none }}", 'x1.0 None'],
    ['{{ 3.0 }} ', 3],
    ['  42  ', '42'],
    [' 0123', '0123'],
    ["{{ '0123' }}", '0123'],
    ['{{ states.light.bed_light.state }} {{ states.light.bed_light.name }}', 'on Bed Light'],
    ['{{ states.climate.hvac.attributes.temperature }}', 21.5],
    ['{{ now().year }}-{{ now().hour }}', '2026-2'],
    ['{{ utcnow().isoformat() }}', '2026-11-28T01:02:03.500000+00:00'],
    ["{{ is_state('light.bed_light', 'off') or 'fallback' }}", 'fallback'],
    ["{{ states('light.bed_light') | upper }}", 'ON'],
  ])('%s', (template, result) => {
    const r = render(template);
    expect(r).toMatchObject({ result });
  });

  test('it lists what it read, and whether it read the time', () => {
    expect(render("{{ states('light.bed_light') }} {{ now().year }}")).toMatchObject({
      listeners: { all: false, entities: ['light.bed_light'], domains: [], time: true },
    });
  });

  test("a value float cannot read is the hub's own error", () => {
    expect(render("{{ states('sensor.nowhere') | float }}")).toEqual({
      error:
        "ValueError: Template error: float got invalid input 'unknown' when rendering template '{{ states('sensor.nowhere') | float }}' but no default was specified",
    });
    expect(render("{{ states('sensor.nowhere') | float(0) }}")).toMatchObject({ result: 0 });
  });
});

describe('forms it does not know are errors, never a value', () => {
  test.each([
    '{% if true %}x{% endif %}',
    '{% for s in states.light %}{{ s.entity_id }}{% endfor %}',
    '{{ states.light | list | count }}',
    "{{ expand('group.x') }}",
    "{{ area_entities('kitchen') }}",
    "{{ states('light.bed_light') | title }}",
    '{{ [1, 2] }}',
    "{{ states('sensor.outside', rounded=True) }}",
    '{{ x }}',
  ])('%s', (template) => {
    const r = render(template);
    expect(r).toHaveProperty('error');
    expect((r as { error: string }).error).toMatch(/^Template(Syntax)?Error/);
  });
});
