// Kinds of media player (issue 39): "the radio", "the speaker", "the television" name a device class
// (Home Assistant's tv, speaker, receiver), and a player with no class is of the kind its name
// carries a word of. A home whose only player is a TV has no radio: "turn up the radio" is refused,
// never the TV's volume. Sentences of our own.
import { describe, expect, test } from 'vitest';
import { loadHome, parseHome } from '@home-mcp-bridge/sim/testing';
import { fixture } from '../helpers/nl-cases.js';
import { plannedCalls as calls, plannerFor } from '../helpers/nlp-home.js';

const en = plannerFor(loadHome(fixture('home.yaml')));
const de = plannerFor(loadHome(fixture('de/home.yaml')), 'de');
type Planner = typeof en;

/** A command that plans no action at all (a refusal or a question back). */
const noAction = (p: Planner, command: string) =>
  expect(
    p.plan(command).some((o) => o.kind === 'act'),
    command,
  ).toBe(false);

describe('a home whose only player is a TV', () => {
  test('English: the radio, the stereo, the speakers are refused; the television and the telly are the TV', () => {
    for (const c of ['turn up the radio', 'switch the stereo on', 'pause the speakers', 'louder on the sound system please']) noAction(en, c);
    expect(calls(en, 'turn on the television')).toEqual(['media_player.tv turn_on']);
    expect(calls(en, 'turn the telly up')).toEqual(['media_player.tv volume_up']);
  });

  test('German: das Radio, die Musikanlage, die Boxen are refused; der Fernseher and die Glotze are the TV', () => {
    for (const c of ['mach das Radio lauter', 'schalte die Musikanlage ein', 'mach die Boxen aus']) noAction(de, c);
    expect(calls(de, 'schalte den Fernseher ein')).toEqual(['media_player.tv turn_on']);
    expect(calls(de, 'mach die Glotze aus')).toEqual(['media_player.tv turn_off']);
  });
});

describe('a home with a TV, a kitchen radio with no class, and a speaker by its class', () => {
  const home = plannerFor(
    parseHome({
      areas: [
        { id: 'living_room', name: 'Living Room' },
        { id: 'kitchen', name: 'Kitchen' },
        { id: 'office', name: 'Office' },
      ],
      entities: [
        { entity_id: 'media_player.tv', name: 'TV', area: 'living_room', state: 'on', attributes: { device_class: 'tv' } },
        { entity_id: 'media_player.kitchen_radio', name: 'Kitchen Radio', area: 'kitchen', state: 'on' },
        { entity_id: 'media_player.desk', name: 'Desk Sonos', area: 'office', state: 'on', attributes: { device_class: 'speaker' } },
      ],
    }),
  );

  test('each word takes its kind: the radio by its name, the speaker by its class, the television by its class', () => {
    expect(calls(home, 'turn up the radio')).toEqual(['media_player.kitchen_radio volume_up']);
    expect(calls(home, 'turn off the speaker in the office')).toEqual(['media_player.desk turn_off']);
    expect(calls(home, 'turn off the television')).toEqual(['media_player.tv turn_off']);
  });
});
