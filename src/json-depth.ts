// How deeply JSON may nest (objects and arrays). Nothing a client has reason to send comes near
// it, while thousands of levels overflow the stack of whatever walks the value (JSON.stringify,
// the validator, the hub's own encoder), so a deep body is refused at admission, before parsing.
import { AppError } from './errors.js';

export const MAX_JSON_DEPTH = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/** True when JSON text nests deeper than `max`, found by one pass over its bytes (no parse). */
export function textTooDeep(text: Buffer | string, max = MAX_JSON_DEPTH): boolean {
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (inString) {
      if (b === BACKSLASH) i++;
      else if (b === QUOTE) inString = false;
    } else if (b === QUOTE) inString = true;
    else if (b === OPEN_BRACE || b === OPEN_BRACKET) {
      if (++depth > max) return true;
    } else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) depth--;
  }
  return false;
}

/** True when a parsed value nests deeper than `max` (it stops looking below that). */
export function valueTooDeep(value: unknown, max = MAX_JSON_DEPTH): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (max === 0) return true;
  for (const v of Array.isArray(value) ? value : Object.values(value)) if (valueTooDeep(v, max - 1)) return true;
  return false;
}

export const tooDeep = (what = 'The request body') =>
  new AppError('BAD_REQUEST', 400, `${what} is nested more than ${MAX_JSON_DEPTH} levels deep`, { max_depth: MAX_JSON_DEPTH });
