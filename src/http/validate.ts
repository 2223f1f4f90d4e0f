// Request bodies are checked with valibot; the first problem is named in the error, all are in details.
import * as v from 'valibot';
import { AppError } from '../errors.js';

function pathOf(issue: v.BaseIssue<unknown>): string {
  return (issue.path ?? []).map((p) => String(p.key)).join('.');
}

export function parseInput<S extends v.GenericSchema>(schema: S, input: unknown, what = 'request body'): v.InferOutput<S> {
  const result = v.safeParse(schema, input ?? {});
  if (result.success) return result.output;
  const issues = result.issues.map((i) => ({ field: pathOf(i) || null, message: i.message }));
  const first = issues[0]!;
  const message = first.field ? `${first.field}: ${first.message}` : `${what}: ${first.message}`;
  throw new AppError('INVALID_PARAMETERS', 400, message, { field: first.field, issues });
}
