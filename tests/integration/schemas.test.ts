// Every schema that is published (route inputs now; OpenAPI and MCP tool inputs build on them)
// converts to JSON Schema 2020-12. A schema that cannot (a `custom` check) fails here by name.
import { afterAll, beforeAll, expect, test } from 'vitest';
import type * as v from 'valibot';
import * as executor from '../../src/actions/executor.js';
import * as groups from '../../src/groups/service.js';
import { kindOf } from '../../src/http/routes.js';
import * as scenes from '../../src/scenes/service.js';
import { anyObject, check, jsonSchemaOf } from '../../src/validation.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

const isSchema = (x: unknown): x is v.GenericSchema => typeof x === 'object' && x !== null && (x as { kind?: unknown }).kind === 'schema';

test('every schema a route declares converts to JSON Schema 2020-12', () => {
  let count = 0;
  for (const route of s.app.routes.routes()) {
    const declared = { params: route.params, query: route.query, body: kindOf(route) === 'json' ? (route as { body?: v.GenericSchema }).body : undefined };
    for (const [part, schema] of Object.entries(declared)) {
      if (!schema) continue;
      count++;
      let json: ReturnType<typeof jsonSchemaOf>;
      try {
        json = jsonSchemaOf(schema);
      } catch (err) {
        throw new Error(`${route.method} ${route.path} ${part}: ${(err as Error).message}`);
      }
      expect(json.$schema, `${route.method} ${route.path} ${part}`).toBe('https://json-schema.org/draft/2020-12/schema');
    }
  }
  expect(count).toBeGreaterThan(8);
});

test('every schema the services export converts too', () => {
  const exported = Object.entries({ ...scenes, ...groups, ...executor }).filter(([, x]) => isSchema(x));
  expect(exported.length).toBeGreaterThanOrEqual(9);
  for (const [name, schema] of exported) {
    expect(() => jsonSchemaOf(schema as v.GenericSchema), name).not.toThrow();
  }
});

test('the scene schema publishes its rules: required fields, lengths, item counts', () => {
  const json = jsonSchemaOf(scenes.sceneSchema) as Record<string, any>;
  expect(json.type).toBe('object');
  expect(json.required).toEqual(['name', 'actions']);
  expect(json.properties.name).toMatchObject({ type: 'string', minLength: 1, maxLength: 100 });
  expect(json.properties.actions).toMatchObject({ type: 'array', minItems: 1, maxItems: 500 });
});

test('an object of any keys is published as an object and refuses a list', () => {
  expect(jsonSchemaOf(anyObject)).toMatchObject({ type: 'object' });
  expect(() => check(anyObject, [1], { at: 'parameters' })).toThrow(/parameters: must be an object/);
});
