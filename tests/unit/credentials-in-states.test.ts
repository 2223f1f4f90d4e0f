// Credentials Home Assistant puts into states are dropped where states enter the bridge, and any
// later answer of the hub's (a service's response) that quotes one has it cut out.
import { describe, expect, test } from 'vitest';
import { quotesCredential, withoutCredentials, withoutQuotedCredentials } from '../../src/hub/credentials.js';

const state = (entity_id: string, attributes: Record<string, unknown>) => ({
  entity_id,
  state: 'idle',
  attributes,
  last_changed: '2026-01-01T00:00:00Z',
  last_updated: '2026-01-01T00:00:00Z',
  context: { id: 'c', parent_id: null, user_id: null },
});

describe('credentials in states', () => {
  test('a camera token and a signed media player picture are dropped, and remembered', () => {
    const cam = withoutCredentials(
      state('camera.porch', { access_token: 'a1b2c3d4e5f6a7b8', entity_picture: '/api/camera_proxy/camera.porch?token=a1b2c3d4e5f6a7b8' }),
    );
    expect(cam.attributes).toEqual({});
    const tv = withoutCredentials(
      state('media_player.tv', { entity_picture: '/api/media_player_proxy/media_player.tv?token=ffee0011ddcc2233&cache=9', volume_level: 0.3 }),
    );
    expect(tv.attributes).toEqual({ volume_level: 0.3 });
    expect(quotesCredential('x A1B2C3D4E5F6A7B8 y')).toBe(true);
    expect(quotesCredential('nothing secret')).toBe(false);
  });

  test("HOLE R1: a service's response quoting a dropped credential has it cut out", () => {
    withoutCredentials(state('media_player.den', { entity_picture: '/api/media_player_proxy/media_player.den?token=0123456789abcdef&cache=1' }));
    const response = {
      'media_player.den': {
        result: [{ title: 'Song', thumbnail: '/api/media_player_proxy/media_player.den/browse_media/album/1?token=0123456789abcdef' }],
        count: 1,
      },
    };
    const out = withoutQuotedCredentials(response);
    expect(JSON.stringify(out)).not.toContain('0123456789abcdef');
    expect(out).toEqual({
      'media_player.den': { result: [{ title: 'Song', thumbnail: '/api/media_player_proxy/media_player.den/browse_media/album/1?token=' }], count: 1 },
    });
    expect(withoutQuotedCredentials({ a: ['plain', 2, null] })).toEqual({ a: ['plain', 2, null] });
  });
});
