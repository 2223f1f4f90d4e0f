// Headers sent with every response. The panel is framed by Home Assistant's own page through
// ingress (same origin), so frames are allowed from the same origin only.

const common: [string, string][] = [
  ['X-Content-Type-Options', 'nosniff'],
  ['Referrer-Policy', 'no-referrer'],
  ['Cross-Origin-Opener-Policy', 'same-origin'],
  ['Cross-Origin-Resource-Policy', 'same-origin'],
  ['Permissions-Policy', 'camera=(), microphone=(), geolocation=()'],
];

/** JSON and streams: nothing may be loaded or framed. */
export const API_HEADERS: readonly (readonly [string, string])[] = [
  ...common,
  ['X-Frame-Options', 'DENY'],
  ['Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"],
  ['Cache-Control', 'no-store'],
];

/** The ingress panel: its own scripts, styles and API calls only. */
export const PANEL_HEADERS: readonly (readonly [string, string])[] = [
  ...common,
  ['X-Frame-Options', 'SAMEORIGIN'],
  [
    'Content-Security-Policy',
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; frame-ancestors 'self'; base-uri 'self'; form-action 'self'",
  ],
];

/** The API reference page: its own scripts; the reference library sets inline styles. */
export const DOCS_HEADERS: readonly (readonly [string, string])[] = [
  ...common,
  ['X-Frame-Options', 'DENY'],
  [
    'Content-Security-Policy',
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'self'; form-action 'none'",
  ],
  // The page and its files follow the running version; no cache keeps a copy of them.
  ['Cache-Control', 'no-store'],
];

/** A header as uWS wants it, encoded once: names and values as bytes, the name also in lower case. */
export interface EncodedHeader {
  readonly lower: string;
  readonly name: Buffer;
  readonly value: Buffer;
}

/**
 * A policy's headers, encoded once, also as one block: uWS writes `name: value\r\n`, so the first
 * name with a value that carries the other lines puts every header on the wire in one call
 * instead of one call each. The block is made from the constants above only; an answer adds its own lines
 * (its id, its type), as uWS would write them one call each.
 */
export interface HeaderSet {
  readonly headers: readonly EncodedHeader[];
  readonly names: ReadonlySet<string>;
  readonly blockName: Buffer;
  /** The block's value: the first header's, then the other lines (each answer adds its own). */
  readonly blockText: string;
}

export function encodeHeaders(headers: readonly (readonly [string, string])[]): HeaderSet {
  const encoded = headers.map(([name, value]) => ({ lower: name.toLowerCase(), name: Buffer.from(name), value: Buffer.from(value) }));
  const rest = headers
    .slice(1)
    .map(([name, value]) => `\r\n${name}: ${value}`)
    .join('');
  return {
    headers: encoded,
    names: new Set(encoded.map((h) => h.lower)),
    blockName: Buffer.from(headers[0]![0]),
    blockText: `${headers[0]![1]}${rest}`,
  };
}

/** Which set a route's answers carry: the API refuses framing, the panel allows its own origin. */
export type HeaderPolicy = 'api' | 'panel' | 'docs';

export const HEADER_POLICIES: Readonly<Record<HeaderPolicy, HeaderSet>> = {
  api: encodeHeaders(API_HEADERS),
  panel: encodeHeaders(PANEL_HEADERS),
  docs: encodeHeaders(DOCS_HEADERS),
};
