// A tool call through the REST tool transport that must succeed: status 200 and no isError.
import { expect } from 'vitest';
import type { TestServer } from './server.js';

export type ToolAnswer = { isError?: boolean; content: { text: string }[]; structuredContent?: Record<string, any> };

export async function callToolOk(s: TestServer, name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  const r = await s.call('/api/tools/call', 'POST', { name, arguments: args });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body.isError, JSON.stringify(r.body.content)).toBeUndefined();
  return r.body as ToolAnswer;
}
