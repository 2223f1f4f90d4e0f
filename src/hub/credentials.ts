// Credentials Home Assistant puts into states: a camera's `access_token` attribute, and proxy URLs
// that carry a token (`entity_picture` of a camera, `/api/camera_proxy/<id>?token=...`, or of a
// media player, `/api/media_player_proxy/<id>?token=...`). Whoever holds one reads the picture
// without signing in. Nothing in the bridge needs them (it reads pictures with its own hub token),
// so they are dropped here, where states enter the bridge, and no answer, event or log carries them.
import type { HubState } from './types.js';

const TOKEN_IN_URL = /[?&]token=([^&#]*)/i;

/**
 * The domains whose states Home Assistant gives credentials. Home Assistant's own template engine
 * reads states before the bridge strips them, so a template that reads these is not answered.
 */
export const CREDENTIAL_DOMAINS: ReadonlySet<string> = new Set(['camera', 'image', 'media_player']);

/** The credentials dropped lately (they rotate every few minutes): an answer quoting one is not given. */
const dropped = new Set<string>();
const remember = (secret: unknown) => {
  if (typeof secret !== 'string' || secret.length < 8) return;
  dropped.delete(secret);
  dropped.add(secret);
  if (dropped.size > 512) dropped.delete(dropped.values().next().value!);
};

/** Whether a text quotes a credential dropped from a state lately (in any case). */
export function quotesCredential(text: string): boolean {
  const lower = text.toLowerCase();
  for (const secret of dropped) if (lower.includes(secret.toLowerCase())) return true;
  return false;
}

const escaped = (x: string) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A service's response with every credential dropped from a state lately cut out of its strings (a
 * media player's browse or search answers sign picture URLs with the same token).
 */
export function withoutQuotedCredentials(value: unknown): unknown {
  if (typeof value === 'string') {
    if (!quotesCredential(value)) return value;
    let out = value;
    for (const secret of dropped) out = out.replace(new RegExp(escaped(secret), 'gi'), '');
    return out;
  }
  if (Array.isArray(value)) return value.map(withoutQuotedCredentials);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, x]) => [k, withoutQuotedCredentials(x)]));
  return value;
}

/** The state without credentials (the same object when it has none). */
export function withoutCredentials<T extends HubState | null | undefined>(state: T): T {
  const a = state?.attributes;
  if (!a) return state;
  const token = typeof a.entity_picture === 'string' ? TOKEN_IN_URL.exec(a.entity_picture) : null;
  const picture = token !== null;
  if (!('access_token' in a) && !picture) return state;
  remember(a.access_token);
  if (token) remember(decodeURIComponent(token[1]!));
  const { access_token: _token, ...rest } = a;
  if (picture) delete rest.entity_picture;
  return { ...state, attributes: rest } as T;
}
