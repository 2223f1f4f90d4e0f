// What a command's answer and refusals say, in the request's language: what each part does and did,
// what could not be done and why, where the hub shows something other than what was asked, and why
// nothing was done (not understood, ambiguous, refused by the checkpoint), with the same codes and
// details on every transport.
import { ambiguous as ambiguousError, AppError, toAppError } from '../errors.js';
import { similarity } from '../hub/similar.js';
import type { GuardedAction } from '../policy/policy.js';
import type { Part } from './command-parts.js';
import type { Home } from './home.js';
import type { LanguageData } from './language.js';
import type { Outcome } from './plan.js';
import { listOf, quote, quoted, say, stepSentence } from './reply.js';

const CLOSEST = 5;

export class CommandWords {
  constructor(
    readonly lang: LanguageData,
    private readonly home: Home,
    private readonly temperature: string,
  ) {}

  nameOf(id: string): string {
    return this.home.entities.get(id)?.name ?? id;
  }

  say(key: string, vars: Record<string, string | number> = {}): string {
    return say(this.lang, key, vars);
  }

  /** A step's sentence: "turn off Kitchen ceiling" (do) or "Turned off Kitchen ceiling." (done). */
  step(form: 'do' | 'done', service: string, data: Record<string, unknown>, ids: readonly string[]): string {
    return stepSentence(
      form,
      service,
      data,
      ids.map((id) => this.nameOf(id)),
      this.lang,
      this.temperature,
    );
  }

  /** What a planned part does ("turn off Kitchen ceiling", "activate the scene Movie"). */
  doing(p: Part): string {
    if ('call' in p) return this.step('do', p.step.service, p.call.data, p.step.entity_ids);
    if ('scene' in p) return this.say('do.scene', { names: p.name });
    return this.say('do.group', { names: p.name, what: stepSentence('do', p.action, p.parameters, [], this.lang).replace(/\s+$/, '').trim() });
  }

  /** What a scene or group part did, when some of it did. */
  partDone(p: Exclude<Part, { step: unknown }>): string {
    return 'scene' in p ? this.say('done.scene', { names: p.name }) : stepSentence('done', p.action, p.parameters, [p.name], this.lang);
  }

  /** What a scene or group part could not do, naming the entities that failed and the first reason. */
  partFailed(p: Exclude<Part, { step: unknown }>, failures: readonly { entity_id: string; error?: { message: string } }[]): string {
    const what = 'scene' in p ? this.say('do.scene', { names: p.name }) : this.doing(p);
    return this.say('failed', {
      what,
      error: `${listOf(
        failures.map((x) => this.nameOf(x.entity_id)),
        this.lang,
      )}: ${failures[0]!.error?.message ?? ''}`,
    });
  }

  /** What a step could not do, one sentence per reason. */
  notDone(service: string, data: Record<string, unknown>, rows: readonly { entity_id: string; error?: { message: string } }[]): string[] {
    return [...groupBy(rows, (r) => r.error?.message ?? '')].map(([message, list]) =>
      this.say('failed', {
        what: this.step(
          'do',
          service,
          data,
          list.map((r) => r.entity_id),
        ),
        error: message,
      }),
    );
  }

  /** "Garage Side Door is jammed, not locked." / "Living Room Blinds is still opening." */
  unverified(a: { entity_id: string; pending?: boolean; expected?: Record<string, unknown>; actual?: Record<string, unknown> }): string {
    const word = (v: unknown) => this.lang.messages[`state.${String(v)}`] ?? String(v);
    const shown = (x: Record<string, unknown> | undefined) =>
      Object.entries(x ?? {})
        .map(([k, v]) => (k === 'state' ? word(v) : `${k.replace(/_/g, ' ')} ${String(v)}`))
        .join(', ');
    return this.say(a.pending ? 'pending' : 'unverified', { name: this.nameOf(a.entity_id), actual: shown(a.actual), expected: shown(a.expected) });
  }

  /** Words that name several entities where they mean one: AMBIGUOUS with the candidates. */
  ambiguity(o: Extract<Outcome, { kind: 'ambiguous' }>): AppError {
    const candidates = o.candidates.map((id) => {
      const e = this.home.entities.get(id)!;
      return { entity_id: id, name: e.name, area: e.area ? (this.home.areas.get(e.area)?.name ?? null) : null };
    });
    const message = this.say('ambiguous', {
      noun: o.noun,
      candidates: listOf(
        candidates.map((c) => `${c.name}${c.area ? ` (${c.area})` : ''}`),
        this.lang,
        'list_or',
      ),
    });
    return ambiguousError(message, candidates, { noun: o.noun });
  }

  /** The checkpoint's refusal (confirmation, settings), said in the request's language with the same code and details. */
  policyRefusal(err: unknown, parts: readonly Part[], guarded: readonly GuardedAction[]): AppError {
    const e = toAppError(err);
    if (e.code === 'CONFIRMATION_REQUIRED')
      return new AppError(
        e.code,
        e.status,
        this.say('confirm', {
          what: listOf(
            parts.map((p) => this.doing(p)),
            this.lang,
          ),
        }),
        e.details,
        e.headers,
      );
    if (e.code === 'FORBIDDEN') {
      const ids = Array.isArray(e.details.entity_ids) ? (e.details.entity_ids as string[]) : guarded.map((g) => g.entity_id);
      return new AppError(
        e.code,
        e.status,
        this.say('forbidden', {
          names: listOf(
            [...new Set(ids)].map((id) => this.nameOf(id)),
            this.lang,
          ),
        }),
        e.details,
        e.headers,
      );
    }
    return e;
  }

  /** Why nothing was done: code NOT_UNDERSTOOD, details.reason naming the rule. */
  notUnderstood(command: string, o: Extract<Outcome, { kind: 'not_understood' }>, compound: boolean): AppError {
    const lang = this.lang;
    const words = quoted(o.words, lang);
    const names = (ids: string[] | undefined) =>
      listOf(
        (ids ?? []).map((id) => this.nameOf(id)),
        lang,
      );
    const details: Record<string, unknown> = {
      reason: o.reason,
      words: o.words,
      unknown_words: o.reason === 'unknown_words' || o.reason === 'no_action' ? o.words : [],
    };
    if (compound) details.part = o.part;
    let message: string;
    switch (o.reason) {
      case 'unsure':
        details.did_you_mean = o.detail?.guess;
        message = say(lang, 'did_you_mean', { guess: quote(o.detail?.guess ?? '', lang), word: words });
        break;
      case 'empty':
      case 'no_action':
        message = say(lang, o.words.length ? 'not_understood' : 'no_action', { words, command: command.slice(0, 80) });
        break;
      case 'unknown_words':
        message = say(lang, 'not_understood', { words, command: command.slice(0, 80) });
        break;
      case 'no_target':
        message =
          o.detail?.where?.length && o.words.length
            ? say(lang, 'no_target_in', { words, where: listOf(o.detail.where, lang) })
            : say(lang, 'no_target', { words: o.words.length ? words : quote(o.part, lang) });
        break;
      case 'cannot':
        message = say(lang, 'cannot', {
          what: say(lang, `do.${o.detail?.verb ?? '*'}`, {
            names: o.detail?.ids?.length ? names(o.detail.ids) : o.words.join(' '),
            service: o.detail?.verb ?? '',
          }),
        });
        break;
      case 'scene_action':
        message = say(lang, 'scene_action', { names: o.words.join(', ') });
        break;
      case 'group_action':
        message = say(lang, 'group_action', { words: quote(o.detail?.verb ?? '', lang) });
        break;
      case 'no_such':
        message = o.detail?.message ?? say(lang, 'no_target', { words: quote(o.part, lang) });
        break;
      case 'range':
        message = say(lang, 'range', { value: o.detail?.value ?? o.words[0] ?? '', min: o.detail?.min ?? '', max: o.detail?.max ?? '' });
        Object.assign(details, { value: o.detail?.value, min: o.detail?.min, max: o.detail?.max });
        break;
      default:
        message = say(lang, o.reason, { words });
    }
    if (compound) message += ` ${say(lang, 'part', { part: o.part })}`;
    if (o.reason === 'unknown_words' || o.reason === 'no_action' || o.reason === 'no_target' || o.reason === 'empty') {
      const closest = this.closest(command, o.words);
      details.closest_names = closest;
      if (closest.length) message += ` ${say(lang, 'closest', { names: listOf(closest, lang) })}`;
    }
    return new AppError('NOT_UNDERSTOOD', 422, message, details);
  }

  private closest(command: string, words: string[]): string[] {
    const probe = (words.length ? words.join(' ') : command).toLowerCase();
    return this.home.known
      .map((name) => ({ name, score: Math.max(similarity(probe, name.toLowerCase()), ...words.map((w) => similarity(w, name.toLowerCase()))) }))
      .sort((a, b) => b.score - a.score || a.name.localeCompare(b.name))
      .slice(0, CLOSEST)
      .map((x) => x.name);
  }
}

function groupBy<T>(list: readonly T[], key: (x: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const x of list) {
    const k = key(x);
    groups.set(k, [...(groups.get(k) ?? []), x]);
  }
  return groups;
}
