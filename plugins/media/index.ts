// Media players: playback, volume, mute, source, playing media, power.
import { actOutput, definePlugin, misplaced, targetFields, text, tool, v } from 'home-mcp-bridge/plugin';

const SERVICE = {
  play: 'media_play',
  pause: 'media_pause',
  play_pause: 'media_play_pause',
  stop: 'media_stop',
  next: 'media_next_track',
  previous: 'media_previous_track',
  volume_set: 'volume_set',
  volume_up: 'volume_up',
  volume_down: 'volume_down',
  mute: 'volume_mute',
  unmute: 'volume_mute',
  select_source: 'select_source',
  play_media: 'play_media',
  turn_on: 'turn_on',
  turn_off: 'turn_off',
} as const;

export default definePlugin({
  name: 'media',
  version: '0.2.0',
  bridge: '^0.2.0',
  description: 'Play, pause, skip, set the volume and source of media players.',
  needs: ['home'],
  domains: ['media_player'],
  words: new URL('./words/', import.meta.url),
  tools: [
    tool({
      name: 'control_media',
      title: 'Control media players',
      description:
        'Media players: play, pause, play_pause, stop, next, previous, volume_set (volume_level 0-1), volume_up, volume_down, mute, unmute, select_source (source), play_media (media_content_id, media_content_type), turn_on, turn_off.',
      input: v.object({
        ...targetFields('media_player'),
        command: v.picklist(Object.keys(SERVICE) as (keyof typeof SERVICE)[]),
        volume_level: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(1))),
        source: v.optional(v.pipe(v.string(), v.maxLength(100))),
        media_content_id: v.optional(v.pipe(v.string(), v.maxLength(2000))),
        media_content_type: v.optional(v.pipe(v.string(), v.maxLength(64))),
      }),
      output: actOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      run: (args, { home }) => {
        const c = args.command;
        const wrong = misplaced(args, c, {
          volume_level: ['volume_set'],
          source: ['select_source'],
          media_content_id: ['play_media'],
          media_content_type: ['play_media'],
        });
        if (wrong) return wrong;
        if (c === 'volume_set' && args.volume_level === undefined) return text('volume_set needs volume_level (0-1).', true);
        if (c === 'select_source' && args.source === undefined) return text('select_source needs source.', true);
        if (c === 'play_media' && (!args.media_content_id || !args.media_content_type))
          return text('play_media needs media_content_id and media_content_type.', true);
        const data =
          c === 'volume_set'
            ? { volume_level: args.volume_level }
            : c === 'mute' || c === 'unmute'
              ? { is_volume_muted: c === 'mute' }
              : c === 'select_source'
                ? { source: args.source }
                : c === 'play_media'
                  ? { media_content_id: args.media_content_id, media_content_type: args.media_content_type }
                  : {};
        return home.act({ domain: 'media_player', service: SERVICE[c], data, entity_id: args.entity_id, area: args.area, dry_run: args.dry_run });
      },
    }),
  ],
});
