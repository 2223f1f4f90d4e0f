// The held-out phrasings of tests/fixtures/nl/people (issue 39): commands and questions as people
// say them, written by someone who had not read the parser's data. Scored, never shown: only counts
// by category are printed, so a miss is fixed by teaching the language or the rule.
import { heldOutSuite } from '../helpers/nl-score.js';

heldOutSuite('held-out phrasings of people', 'people (held out)', [
  { language: 'en', home: 'home.yaml', cases: 'people/en.jsonl', minCorrect: 0.93, maxWrong: 2 },
  { language: 'de', home: 'de/home.yaml', cases: 'people/de.jsonl', minCorrect: 0.94, maxWrong: 0 },
]);
