// The fresh held-out phrasings of tests/fixtures/nl/fresh (issue 39): a second set of sentences as
// people say or type them, written without reading the parser, its words or the earlier sets. Scored
// as nl-people scores its sets; only counts by category are printed, except the safety cases below.
import { heldOutSuite } from '../helpers/nl-score.js';

heldOutSuite('fresh held-out phrasings', 'fresh (held out)', [
  { language: 'en', home: 'home.yaml', cases: 'fresh/en.jsonl', minCorrect: 0.93, maxWrong: 1 },
  { language: 'de', home: 'de/home.yaml', cases: 'fresh/de.jsonl', minCorrect: 0.94, maxWrong: 1 },
]);
