// Credentials Home Assistant puts into states: a camera's `access_token` attribute, and proxy URLs
// that carry a token (`entity_picture` of a camera, `/api/camera_proxy/<id>?token=...`, or of a
// media player, `/api/media_player_proxy/<id>?token=...`). Whoever holds one reads the picture
// without signing in. Nothing in the bridge needs them (it reads pictures with its own hub token),
// so they are dropped here, where states enter the bridge, and no answer, event or log carries them.
import type { HubState } from './types.js';

const TOKEN_IN_URL = /[?&]token=/i;

/** The state without credentials (the same object when it has none). */
export function withoutCredentials<T extends HubState | null | undefined>(state: T): T {
  const a = state?.attributes;
  if (!a) return state;
  const picture = typeof a.entity_picture === 'string' && TOKEN_IN_URL.test(a.entity_picture);
  if (!('access_token' in a) && !picture) return state;
  const { access_token: _token, ...rest } = a;
  if (picture) delete rest.entity_picture;
  return { ...state, attributes: rest } as T;
}
