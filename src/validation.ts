// The one validator: every body, query, path parameter, stored definition, setting and tool
// argument is checked with a valibot schema here, and every problem becomes the project's error in
// plain words. Schemas may carry their own messages; the library's own wording ("Invalid key:
// Expected ...") never reaches a client, and a bad value is echoed only as a short prefix.
import { MAX_JSON_DEPTH, valueTooDeep } from './json-depth.js';
import * as v from 'valibot';
import { toJsonSchema, type JsonSchema } from '@valibot/to-json-schema';
import { AppError } from './errors.js';

export interface FieldIssue {
  /** Dotted path of the field (`actions.3.action`), or null for the value as a whole. */
  field: string | null;
  message: string;
  /** A short prefix of what was sent, for scalars only. */
  value?: string | number | boolean | null;
}

/** Longest prefix of a bad value that an error repeats. */
export const ECHO_MAX = 40;

/** What an error may repeat of a value: scalars, strings cut to a short prefix; nothing else. */
export function echo(value: unknown): string | number | boolean | null | undefined {
  if (typeof value === 'string') return value.length > ECHO_MAX ? `${value.slice(0, ECHO_MAX)}…` : value;
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return value;
  return undefined;
}

const TYPE_WORDS: Record<string, string> = {
  string: 'must be a string',
  number: 'must be a number',
  bigint: 'must be a number',
  boolean: 'must be true or false',
  object: 'must be an object',
  loose_object: 'must be an object',
  strict_object: 'must be an object',
  object_with_rest: 'must be an object',
  record: 'must be an object',
  array: 'must be a list',
  tuple: 'must be a list',
  strict_tuple: 'must be a list',
  null: 'must be null',
  date: 'must be a date',
  integer: 'must be a whole number',
  finite: 'must be a finite number',
  safe_integer: 'must be a whole number',
  non_empty: 'must not be empty',
  email: 'must be an email address',
  url: 'must be a URL',
  uuid: 'must be a UUID',
  iso_timestamp: 'must be an ISO 8601 timestamp',
  iso_date_time: 'must be an ISO 8601 date and time',
  regex: 'is not in the expected format',
  check: 'is not valid',
};

const isLibraryWording = (message: string) => /^Invalid [\w ]+: /.test(message);

/** The issue's message when a schema gave one; else plain words made from the issue itself. */
function plainMessage(issue: v.BaseIssue<unknown>): string {
  if (!isLibraryWording(issue.message)) return issue.message;
  const { type, expected, received, requirement, input } = issue as v.BaseIssue<unknown> & { requirement?: unknown };
  // A key that is missing reports the key as expected and undefined as received.
  if (received === 'undefined' && expected?.startsWith('"')) return 'is required';
  if (expected === 'never') return 'unknown field';
  const many = Array.isArray(input) ? 'items' : 'characters';
  switch (type) {
    case 'min_length':
      return `must be at least ${String(requirement)} ${many} long`;
    case 'max_length':
      return `is too long: at most ${String(requirement)} ${many}`;
    case 'length':
      return `must be exactly ${String(requirement)} ${many} long`;
    case 'min_value':
    case 'gt_value':
      return `must be at least ${String(requirement)}`;
    case 'max_value':
    case 'lt_value':
      return `must be at most ${String(requirement)}`;
    case 'picklist':
    case 'enum':
    case 'literal':
    case 'union':
    case 'variant':
      return expected ? `must be one of ${expected.replace(/^\((.*)\)$/, '$1').replace(/ \| /g, ', ')}` : 'is not one of the allowed values';
  }
  return TYPE_WORDS[type] ?? (expected ? `must be ${expected}` : 'is not valid');
}

function pathOf(issue: v.BaseIssue<unknown>, at: string): string | null {
  const parts = (issue.path ?? []).map((p) => String(p.key));
  const field = [at, ...parts].filter(Boolean).join('.');
  return field || null;
}

/** Every problem valibot found, in plain words, with field paths below `at`. */
export function issuesOf(issues: readonly v.BaseIssue<unknown>[], at = ''): FieldIssue[] {
  return issues.map((issue) => {
    const out: FieldIssue = { field: pathOf(issue, at), message: plainMessage(issue) };
    // An unknown key carries the key's value as input; echoing the key itself is what helps.
    const value = echo(issue.input);
    if (value !== undefined && issue.expected !== 'never') out.value = value;
    return out;
  });
}

/** The project's error for a list of problems: the first named in the message, all in details. */
export function invalid(issues: FieldIssue[], what = 'request body'): AppError {
  const first = issues[0] ?? { field: null, message: 'is not valid' };
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})` : '';
  return new AppError('INVALID_PARAMETERS', 400, `${first.field ?? what}: ${first.message}${more}`, { field: first.field, issues });
}

export interface CheckOptions {
  /** Field path the value sits at (e.g. `actions.3`), so messages name the whole path. */
  at?: string;
  /** What the value is, for problems with the value as a whole (default "request body"). */
  what?: string;
}

/** Checks a value against a schema and returns its output, or throws INVALID_PARAMETERS listing every problem. */
export function check<S extends v.GenericSchema>(schema: S, input: unknown, opts: CheckOptions = {}): v.InferOutput<S> {
  const result = v.safeParse(schema, input);
  if (result.success) return result.output;
  throw invalid(issuesOf(result.issues, opts.at), opts.what);
}

/** Like check, but answers with the problems instead of throwing (settings, plugin definitions). */
export function validate<S extends v.GenericSchema>(
  schema: S,
  input: unknown,
  at = '',
): { ok: true; value: v.InferOutput<S> } | { ok: false; issues: FieldIssue[] } {
  const result = v.safeParse(schema, input);
  return result.success ? { ok: true, value: result.output } : { ok: false, issues: issuesOf(result.issues, at) };
}

/**
 * A schema as published (OpenAPI, MCP tool inputs): JSON Schema 2020-12 of what a client sends.
 * `check` refinements have no JSON Schema form and are left to the validator; anything else that
 * cannot be converted (a `custom` schema) throws, so it cannot be published by mistake.
 */
export function jsonSchemaOf(schema: v.GenericSchema): JsonSchema {
  return toJsonSchema(schema, {
    target: 'draft-2020-12',
    typeMode: 'input',
    ignoreActions: ['check'],
    overrideSchema: ({ valibotSchema }) => (valibotSchema === OBJECT ? { type: 'object' } : undefined),
  });
}

const isPlainObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
// valibot's record and object schemas take arrays too (a list would become {"0": ...}).
const OBJECT = v.custom<Record<string, unknown>>(isPlainObject, 'must be an object');

/**
 * A JSON object with any keys (never a list), published as `{type: "object"}`. Values passed on
 * as they are (service data, scene parameters) are held to the nesting every body is held to, so
 * whatever is stored can be sent on again.
 */
export const anyObject = v.pipe(
  OBJECT,
  v.check((x) => !valueTooDeep(x), `is nested more than ${MAX_JSON_DEPTH} levels deep`),
);
