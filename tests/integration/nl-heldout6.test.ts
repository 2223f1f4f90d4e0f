// The sixth held-out phrasing set, tests/fixtures/nl/heldout6 (issue 39): sentences as people say or
// type them, written from the two test homes and the case format only, without reading the parser,
// its words or any earlier set (the team tuned the parser on those). It prints correct / refused /
// wrong by category and the wrong actions, and fails when a case that wants a refusal, a question
// back or an answer gets actions.
// Scored blind on main at 05e4959 (before the sixth parser round): en 154 of 175, 18 refused, 3 wrong
// (1 wrong action: "turn up the radio" turned up the TV); de 127 of 150, 22 refused, 1 wrong (the same,
// in German). The lead read those two and made media players' kind words device classes; the parser
// round (branch nl7) was written without seeing the set (its engineer saw the two total lines once,
// after his last change). Floors at the score after: en 163 (93.1%), de 137 (91.3%), no wrong action.
import { heldOutSuite } from '../helpers/nl-score.js';

heldOutSuite('sixth held-out phrasings', 'heldout6 (held out)', [
  { language: 'en', home: 'home.yaml', cases: 'heldout6/en.jsonl', minCorrect: 0.93 },
  { language: 'de', home: 'de/home.yaml', cases: 'heldout6/de.jsonl', minCorrect: 0.91 },
]);
