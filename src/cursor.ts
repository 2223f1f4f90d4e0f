// Opaque page cursors: what a list answers as next_cursor, and reads back on the next call.
import { badRequest } from './errors.js';

export const toCursor = (position: (string | number)[]): string => Buffer.from(JSON.stringify(position)).toString('base64url');

/** The position a cursor holds; a cursor this API did not give out is a 400. */
export function fromCursor(cursor: string, kinds: readonly ('string' | 'number')[]): (string | number)[] {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as unknown;
    if (Array.isArray(value) && value.length === kinds.length && value.every((x, i) => typeof x === kinds[i])) return value as (string | number)[];
  } catch {
    // answered below
  }
  throw badRequest('cursor is not one this API gave out: pass next_cursor from the previous page unchanged', { field: 'cursor' });
}
