// The panel's one way to the bridge: relative URLs (so it works under Home Assistant's ingress
// path), the bridge token when signed in on the add-on's own port, nothing when ingress vouches.
const TOKEN_KEY = 'home-mcp-bridge.token';

export class ApiError extends Error {
  constructor(message, status, body) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

let token = sessionStorage.getItem(TOKEN_KEY);
let onSignedOut = () => {};

export const hasToken = () => Boolean(token);
export const whenSignedOut = (fn) => (onSignedOut = fn);

export function setToken(value) {
  token = value;
  if (value) sessionStorage.setItem(TOKEN_KEY, value);
  else sessionStorage.removeItem(TOKEN_KEY);
}

/** JSON in and out; errors carry the bridge's own message. 207 (some failed) is an answer, not an error. */
export async function api(path, { method = 'GET', body } = {}) {
  const headers = { accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin' });
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (res.status === 401 && !path.startsWith('auth/')) {
    setToken(null);
    onSignedOut();
  }
  if (!res.ok) throw new ApiError(data?.message ?? `${res.status} ${res.statusText}`, res.status, data);
  return data;
}

/** The live event stream: through ingress no token is needed; signed in, EventSource cannot send headers, so the token goes in the query. */
export function eventStream() {
  return new EventSource(token ? `subscribe_events?token=${encodeURIComponent(token)}` : 'api/events/stream');
}
