// Media players: playback, volume, sources. As on the hub, a player that is off shows no media
// attributes; what it was playing is remembered and shown again when it comes back on.
import { type DomainModule, finish, numeric } from '../domain.js';
import { any, boolean, coerceEnum, isPlainObject, isType, listOf, string, type Validator } from '../schema.js';
import type { EntityCtx, FieldDef, ServiceDef } from '../services.js';
import { HomeAssistantError } from '../errors.js';
import { SINCE } from '../version.js';
import { num, positiveFloat, sel, smallFloat } from './common.js';
import { isoFromMicros, nowMicros } from '../time.js';

export const MP_PAUSE = 1;
export const MP_SEEK = 2;
export const MP_VOLUME_SET = 4;
export const MP_VOLUME_MUTE = 8;
export const MP_PREVIOUS_TRACK = 16;
export const MP_NEXT_TRACK = 32;
export const MP_TURN_ON = 128;
export const MP_TURN_OFF = 256;
export const MP_PLAY_MEDIA = 512;
export const MP_VOLUME_STEP = 1024;
export const MP_SELECT_SOURCE = 2048;
export const MP_STOP = 4096;
export const MP_CLEAR_PLAYLIST = 8192;
export const MP_PLAY = 16384;
export const MP_SHUFFLE_SET = 32768;
export const MP_SELECT_SOUND_MODE = 65536;
export const MP_REPEAT_SET = 262144;
export const MP_GROUPING = 524288;
export const MP_BROWSE_MEDIA = 131072;
export const MP_SEARCH_MEDIA = 4194304;

/** Attributes shown only while the player is not off. */
const MEDIA_ATTRS = [
  'volume_level',
  'is_volume_muted',
  'media_content_id',
  'media_content_type',
  'media_duration',
  'media_position',
  'media_position_updated_at',
  'media_title',
  'media_artist',
  'media_album_name',
  'media_track',
  'source',
  'sound_mode',
  'shuffle',
  'repeat',
  'app_name',
];

type Model = Record<string, unknown>;

/** The remembered media model, refreshed with whatever the state currently shows. */
function model(e: EntityCtx): Model {
  const m: Model = { ...((e.memory.model as Model | undefined) ?? {}) };
  if (e.state.state !== 'off') for (const k of MEDIA_ATTRS) if (k in e.attrs) m[k] = e.attrs[k];
  return m;
}

function render(base: Record<string, unknown>, state: string, m: Model): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(base)) if (!MEDIA_ATTRS.includes(k)) out[k] = v;
  if (state !== 'off') for (const k of MEDIA_ATTRS) if (m[k] !== undefined && m[k] !== null) out[k] = m[k];
  return finish(out, String(base.friendly_name ?? ''), num(base.supported_features, 0));
}

function write(e: EntityCtx, state: string, m: Model): void {
  e.memory.model = m;
  if (state !== 'off') e.memory.lastOn = state;
  e.write(state, render(e.attrs, state, m));
}

const playlist = (e: EntityCtx): string[] => (Array.isArray(e.config.playlist) ? e.config.playlist.map(String) : ['Track 1', 'Track 2', 'Track 3']);

function track(e: EntityCtx, step: 1 | -1): void {
  const m = model(e);
  const list = playlist(e);
  const index = (num(m.media_track, 1) - 1 + step + list.length) % list.length;
  m.media_track = index + 1;
  m.media_title = list[index];
  m.media_position = 0;
  m.media_position_updated_at = isoFromMicros(nowMicros());
  write(e, e.state.state === 'off' ? 'playing' : e.state.state, m);
}

function setVolume(e: EntityCtx, volume: number): void {
  const m = model(e);
  m.volume_level = volume;
  write(e, e.state.state, m);
}

function volumeStep(e: EntityCtx, direction: 1 | -1): void {
  const m = model(e);
  const current = typeof m.volume_level === 'number' ? m.volume_level : undefined;
  if (current === undefined || !(e.features & MP_VOLUME_SET)) return;
  if (direction > 0 && current >= 1) return;
  if (direction < 0 && current <= 0) return;
  setVolume(e, Math.max(0, Math.min(1, Math.round((current + 0.1 * direction) * 1e9) / 1e9)));
}

const turnOn = (e: EntityCtx) => {
  if (e.state.state === 'off') write(e, typeof e.memory.lastOn === 'string' ? e.memory.lastOn : 'idle', model(e));
};
const turnOff = (e: EntityCtx) => {
  if (e.state.state !== 'off') write(e, 'off', model(e));
};
const play = (e: EntityCtx) => write(e, 'playing', model(e));
const pause = (e: EntityCtx) => write(e, 'paused', model(e));

/** 2026.11's play_media: a `media` object ({media_content_id, media_content_type}) stands for the two fields. */
const mediaToContent: Validator = (v) => {
  if (!isPlainObject(v) || !isPlainObject(v.media)) return v;
  const { media, ...rest } = v;
  return { ...rest, media_content_id: media.media_content_id, media_content_type: media.media_content_type };
};

export const mediaPlayer: DomainModule = {
  domain: 'media_player',
  init(seed, hub) {
    const a = seed.attributes;
    numeric(a, ['volume_level', 'media_duration', 'media_position', 'media_track']);
    // A home file may give volume as a percentage ('50'); the hub's volume_level is 0..1.
    if (typeof a.volume_level === 'number' && a.volume_level > 1) a.volume_level = Math.min(100, a.volume_level) / 100;
    let features =
      MP_PAUSE |
      MP_SEEK |
      MP_VOLUME_SET |
      MP_VOLUME_MUTE |
      MP_PREVIOUS_TRACK |
      MP_NEXT_TRACK |
      MP_TURN_ON |
      MP_TURN_OFF |
      MP_PLAY_MEDIA |
      MP_VOLUME_STEP |
      MP_STOP |
      MP_PLAY |
      MP_SHUFFLE_SET |
      MP_REPEAT_SET |
      MP_CLEAR_PLAYLIST;
    if (Array.isArray(a.source_list)) features |= MP_SELECT_SOURCE;
    if (Array.isArray(a.sound_mode_list)) features |= MP_SELECT_SOUND_MODE;
    features = num(a.supported_features, features);
    const state = seed.state ?? 'off';
    const m: Model = { volume_level: 0.5, is_volume_muted: false };
    for (const k of MEDIA_ATTRS) if (k in a) m[k] = a[k];
    const memory = hub.memory(seed.entityId);
    memory.model = m;
    if (state !== 'off') memory.lastOn = state;
    return { state, attributes: render({ ...a, friendly_name: a.friendly_name ?? seed.name, supported_features: features }, state, m) };
  },
  setup(hub) {
    const r = (service: string, def: ServiceDef) => hub.services.register('media_player', service, def);
    r('turn_on', { name: 'Turn on', description: 'Turns on the power of the media player.', requiredFeatures: [MP_TURN_ON], handle: turnOn });
    r('turn_off', { name: 'Turn off', description: 'Turns off the power of the media player.', requiredFeatures: [MP_TURN_OFF], handle: turnOff });
    r('toggle', {
      name: 'Toggle',
      description: 'Toggles a media player on/off.',
      requiredFeatures: [MP_TURN_OFF | MP_TURN_ON],
      handle: (e) => (e.state.state === 'off' ? turnOn(e) : turnOff(e)),
    });
    r('volume_up', {
      name: 'Turn up volume',
      description: 'Turns up the volume.',
      requiredFeatures: [MP_VOLUME_SET, MP_VOLUME_STEP],
      handle: (e) => volumeStep(e, 1),
    });
    r('volume_down', {
      name: 'Turn down volume',
      description: 'Turns down the volume.',
      requiredFeatures: [MP_VOLUME_SET, MP_VOLUME_STEP],
      handle: (e) => volumeStep(e, -1),
    });
    r('volume_set', {
      name: 'Set volume',
      description: 'Sets the volume level.',
      requiredFeatures: [MP_VOLUME_SET],
      fields: {
        volume_level: {
          v: smallFloat,
          required: true,
          name: 'Level',
          description: 'The volume. 0 is inaudible, 1 is the maximum volume.',
          selector: sel.number(0, 1, { step: 0.01 }),
        },
      },
      handle: (e) => setVolume(e, e.params.volume_level as number),
    });
    r('volume_mute', {
      name: 'Mute/unmute volume',
      description: 'Mutes or unmutes the media player.',
      requiredFeatures: [MP_VOLUME_MUTE],
      fields: {
        is_volume_muted: { v: boolean, required: true, name: 'Muted', description: 'Defines whether or not it is muted.', selector: sel.boolean() },
      },
      handle: (e) => {
        const m = model(e);
        m.is_volume_muted = e.params.is_volume_muted;
        write(e, e.state.state, m);
      },
    });
    r('media_play', { name: 'Play', description: 'Starts playing.', requiredFeatures: [MP_PLAY], handle: play });
    r('media_pause', { name: 'Pause', description: 'Pauses.', requiredFeatures: [MP_PAUSE], handle: pause });
    r('media_play_pause', {
      name: 'Play/Pause',
      description: 'Toggles play/pause.',
      requiredFeatures: [MP_PLAY | MP_PAUSE],
      handle: (e) => (e.state.state === 'playing' ? pause(e) : play(e)),
    });
    r('media_stop', { name: 'Stop', description: 'Stops playing.', requiredFeatures: [MP_STOP], handle: (e) => write(e, 'idle', model(e)) });
    r('media_next_track', { name: 'Next', description: 'Selects the next track.', requiredFeatures: [MP_NEXT_TRACK], handle: (e) => track(e, 1) });
    r('media_previous_track', {
      name: 'Previous',
      description: 'Selects the previous track.',
      requiredFeatures: [MP_PREVIOUS_TRACK],
      handle: (e) => track(e, -1),
    });
    r('media_seek', {
      name: 'Seek',
      description: 'Allows you to go to a different part of the media that is currently playing.',
      requiredFeatures: [MP_SEEK],
      fields: {
        seek_position: {
          v: positiveFloat,
          required: true,
          name: 'Position',
          description: 'Target position in the currently playing media. The format is platform dependent.',
          advanced: true,
          // biome-ignore lint/correctness/noPrecisionLoss: Home Assistant's own maximum (2^63-1) as it writes it; JSON carries the same double
          selector: sel.number(0, 9223372036854775807, { step: 0.01, mode: 'box' }),
        },
      },
      handle: (e) => {
        const m = model(e);
        m.media_position = e.params.seek_position;
        m.media_position_updated_at = isoFromMicros(nowMicros());
        write(e, e.state.state, m);
      },
    });
    const textField = (name: string, description: string, example: string): FieldDef => ({
      v: string,
      required: true,
      name,
      description,
      example,
      selector: sel.text(),
    });
    r('select_source', {
      name: 'Select source',
      description: 'Sends the media player the command to change input source.',
      requiredFeatures: [MP_SELECT_SOURCE],
      fields: { source: textField('Source', 'Name of the source to switch to. Platform dependent.', 'video1') },
      handle: (e) => {
        const m = model(e);
        m.source = e.params.source;
        write(e, e.state.state, m);
      },
    });
    r('select_sound_mode', {
      name: 'Select sound mode',
      description: 'Selects a specific sound mode.',
      requiredFeatures: [MP_SELECT_SOUND_MODE],
      fields: { sound_mode: { ...textField('Sound mode', 'Name of the sound mode to switch to.', 'Music'), required: false } },
      handle: (e) => {
        const m = model(e);
        m.sound_mode = e.params.sound_mode;
        write(e, e.state.state, m);
      },
    });
    // 2026.11 describes one `media` field (what the frontend's media selector gives) and takes it
    // as media_content_id and media_content_type, which it still takes as they are.
    const current = hub.since(SINCE.current);
    r('play_media', {
      name: 'Play media',
      description: 'Starts playing specified media.',
      requiredFeatures: [MP_PLAY_MEDIA],
      ...(current ? { before: mediaToContent } : {}),
      fields: {
        media_content_id: {
          ...textField('Content ID', 'The ID of the content to play. Platform dependent.', 'https://home-assistant.io/images/cast/splash.png'),
          currentDescription: { hidden: true },
        },
        media_content_type: {
          ...textField('Content type', 'The type of the content to play, such as image, music, tv show, video, episode, channel, or playlist.', 'music'),
          currentDescription: { hidden: true },
        },
        ...(current
          ? {
              media: {
                v: isType('dict'),
                name: 'Media',
                description: 'The media selected to play.',
                example: '{"media_content_id": "https://home-assistant.io/images/cast/splash.png", "media_content_type": "music"}',
                selector: { media: { multiple: false, image_upload: false } },
                currentDescription: { required: true },
              },
            }
          : {}),
        enqueue: {
          v: any(boolean, coerceEnum('MediaPlayerEnqueue', ['add', 'next', 'play', 'replace'])),
          name: 'Enqueue',
          description: 'If the content should be played now or be added to the queue.',
          selector: sel.select(['play', 'next', 'add', 'replace'], { translation_key: 'enqueue' }),
        },
        announce: { v: boolean, name: 'Announce', description: 'If the media should be played as an announcement.', example: 'true', selector: sel.boolean() },
        extra: { v: isType('dict'), default: {}, hidden: true },
      },
      handle: (e) => {
        const m = model(e);
        m.media_content_id = e.params.media_content_id;
        m.media_content_type = e.params.media_content_type;
        m.media_title = String(e.params.media_content_id);
        m.media_position = 0;
        m.media_position_updated_at = isoFromMicros(nowMicros());
        write(e, 'playing', m);
      },
    });
    if (current) {
      // Browsing and searching need a media source; the simulator's players have none to offer.
      const noMedia = (e: EntityCtx) => {
        throw new HomeAssistantError(`${e.id} has no media to browse or search`);
      };
      r('browse_media', {
        name: 'Browse media',
        description: 'Browses the available media.',
        requiredFeatures: [MP_BROWSE_MEDIA],
        response: 'only',
        fields: {
          media_content_type: { ...textField('Content type', 'The type of the content to browse.', 'music'), required: false },
          media_content_id: { ...textField('Content ID', 'The ID of the content to browse.', 'A:ALBUMARTIST/Beatles'), required: false },
        },
        handle: noMedia,
      });
      r('search_media', {
        name: 'Search media',
        description: 'Searches the available media.',
        requiredFeatures: [MP_SEARCH_MEDIA],
        response: 'only',
        fields: {
          search_query: { ...textField('Search query', 'The term to search for.', 'Beatles'), required: true },
          media_content_type: { ...textField('Content type', 'The type of the content to search.', 'music'), required: false },
          media_content_id: { ...textField('Content ID', 'Where to search.', 'A:ALBUMARTIST/Beatles'), required: false },
          media_filter_classes: { v: listOf(string), name: 'Media classes', description: 'The kinds of media to find.', selector: sel.text() },
        },
        handle: noMedia,
      });
    }
    r('shuffle_set', {
      name: 'Shuffle',
      description: 'Playback mode that selects the media in randomized order.',
      requiredFeatures: [MP_SHUFFLE_SET],
      fields: { shuffle: { v: boolean, required: true, name: 'Shuffle', description: 'Whether or not shuffle mode is enabled.', selector: sel.boolean() } },
      handle: (e) => {
        const m = model(e);
        m.shuffle = e.params.shuffle;
        write(e, e.state.state, m);
      },
    });
    r('repeat_set', {
      name: 'Repeat',
      description: 'Playback mode that plays the media in a loop.',
      requiredFeatures: [MP_REPEAT_SET],
      fields: {
        repeat: {
          v: coerceEnum('RepeatMode', ['all', 'off', 'one']),
          required: true,
          name: 'Repeat mode',
          description: 'Repeat mode to set.',
          selector: sel.select(['off', 'all', 'one'], { translation_key: 'repeat' }),
        },
      },
      handle: (e) => {
        const m = model(e);
        m.repeat = e.params.repeat;
        write(e, e.state.state, m);
      },
    });
    r('join', {
      name: 'Join',
      description: 'Groups media players together for synchronous playback. Only works on supported multiroom audio systems.',
      requiredFeatures: [MP_GROUPING],
      fields: {
        group_members: {
          v: listOf(string),
          required: true,
          name: 'Group members',
          description: 'The players which will be synced with the playback specified in `target`.',
          example: '- media_player.multiroom_player2\n- media_player.multiroom_player3\n',
          selector: { entity: { multiple: true, domain: 'media_player' } },
        },
      },
      handle: (e) => {
        e.attrs.group_members = [e.id, ...(e.params.group_members as string[]).filter((id) => id !== e.id)];
        e.write(e.state.state, e.attrs);
      },
    });
    r('unjoin', {
      name: 'Unjoin',
      description: 'Removes the player from a group. Only works on platforms which support player groups.',
      requiredFeatures: [MP_GROUPING],
      handle: (e) => {
        e.attrs.group_members = [e.id];
        e.write(e.state.state, e.attrs);
      },
    });
    r('clear_playlist', {
      name: 'Clear playlist',
      description: 'Removes all items from the playlist.',
      requiredFeatures: [MP_CLEAR_PLAYLIST],
      handle: (e) => {
        const m = model(e);
        for (const k of [
          'media_content_id',
          'media_content_type',
          'media_title',
          'media_artist',
          'media_album_name',
          'media_track',
          'media_duration',
          'media_position',
          'media_position_updated_at',
        ]) {
          delete m[k];
        }
        write(e, e.state.state === 'off' ? 'off' : 'idle', m);
      },
    });
  },
};
