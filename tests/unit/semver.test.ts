// A plugin's `bridge` range, read as npm reads semver ranges (the forms plugin authors write).
import { describe, expect, test } from 'vitest';
import { parseRange, satisfies } from '../../src/plugin-host/semver.js';

describe('satisfies', () => {
  test.each([
    ['0.2.0', '^0.2.0', true],
    ['0.2.7', '^0.2.0', true],
    ['0.3.0', '^0.2.0', false],
    ['1.4.2', '^1.2.3', true],
    ['2.0.0', '^1.2.3', false],
    ['0.0.3', '^0.0.3', true],
    ['0.0.4', '^0.0.3', false],
    ['1.4.9', '~1.4', true],
    ['1.5.0', '~1.4', false],
    ['1.9.0', '~1', true],
    ['0.2.0', '>=0.2.0 <1', true],
    ['1.0.0', '>=0.2.0 <1', false],
    ['0.1.9', '>=0.2.0 <1', false],
    ['1.3.0', '1.x', true],
    ['2.0.0', '1.x', false],
    ['5.6.7', '*', true],
    ['1.3.0', '1.2.3 - 1.4', true],
    ['1.4.5', '1.2.3 - 1.4', true],
    ['1.5.0', '1.2.3 - 1.4', false],
    ['3.0.0', '^1.0.0 || ^3.0.0', true],
    ['2.0.0', '^1.0.0 || ^3.0.0', false],
    ['1.3.0', '>1.2', true],
    ['1.2.9', '>1.2', false],
    ['1.2.9', '<=1.2', true],
    ['1.3.0', '<=1.2', false],
    ['0.2.0', '=0.2.0', true],
  ])('%s in %s: %s', (version, range, expected) => {
    expect(satisfies(version, range)).toBe(expected);
  });

  test('what it cannot read is never satisfied, and parseRange says so', () => {
    expect(parseRange('latest')).toBeUndefined();
    expect(parseRange('^x.y')).toBeUndefined();
    expect(parseRange('')).toBeUndefined();
    expect(satisfies('0.2.0', 'latest')).toBe(false);
    expect(satisfies('0.2.0-beta.1', '^0.2.0')).toBe(false);
  });
});
