// The command service: one entrance for natural-language commands (REST, WebSocket, the MCP tool).
// It keeps the parser's picture of the home current, plans a command, holds it to the guard, and
// runs it through the action executor, the scene service or the group service, or only plans it.
import type { ActionResult } from '../actions/batch.js';
import type { ActionExecutor, PlannedCall } from '../actions/executor.js';
import type { Verification } from '../actions/verify.js';
import type { Principal } from '../auth/tokens.js';
import type { Bus } from '../bus.js';
import { ambiguous as ambiguousError, AppError, hubUnavailable, invalidParameters, toAppError } from '../errors.js';
import type { GroupService } from '../groups/service.js';
import type { HubClient } from '../hub/client.js';
import { EVENT } from '../hub/protocol.js';
import { REGISTRY_EVENTS } from '../hub/registries.js';
import { serviceAccepts } from '../hub/service-fields.js';
import { similarity } from '../hub/similar.js';
import type { StateChangedData } from '../hub/types.js';
import type { HomeView } from '../policy/home-view.js';
import type { Caller, EffectPreview, GuardedAction, Policy } from '../policy/policy.js';
import type { SceneService } from '../scenes/service.js';
import type { Units } from './act.js';
import { buildHome, type Home } from './home.js';
import { BUILT_IN_LANGUAGES, DEFAULT_LANGUAGE, languageWith, pickLanguage, readLanguages, type LanguageData, type PluginWords } from './language.js';
import { languageLexicon, type Lexicon } from './lexicon.js';
import { plan, type Outcome, type Step } from './plan.js';
import { listOf, quote, quoted, say, stepSentence } from './reply.js';
import { areaIdOf } from './targets.js';

export interface CommandInput {
  command: string;
  context?: { area?: string };
  dry_run?: boolean;
  language?: string;
  /** The person confirmed an action that needs it (unlock, disarm, open a garage door). */
  confirm?: boolean;
  /** Settles an ambiguity: the entity meant, one of the candidates an earlier answer listed. */
  choose?: string;
  /** The code for locks and alarm panels the command acts on, where the words gave none ("with code 1234" does too). */
  code?: string;
}

/** Domains whose services take the code the request carries. */
const CODED = new Set(['lock', 'alarm_control_panel']);

export interface CommandAction {
  entity_id: string;
  /** The hub's service in the entity's domain. */
  action: string;
  parameters: Record<string, unknown>;
  status: 'planned' | 'completed' | 'failed';
  needs_confirmation?: boolean;
  state?: string | null;
  /** Whether the entity shows what was asked (see the action executor); expected and actual when it does not. */
  verified?: boolean;
  pending?: boolean;
  expected?: Record<string, unknown>;
  actual?: Record<string, unknown>;
  error?: { code: string; message: string };
}

export interface CommandResult {
  success: boolean;
  actions: CommandAction[];
  message: string;
  dry_run: boolean;
  /** With exactly one action: its service and entity (docs/commands.md: the command answer). */
  action?: string;
  device?: string;
  query?: { entities: string[]; matching: string[]; answer: string; question: string };
  candidates?: { entity_id: string; name: string; area: string | null }[];
  /** A dry run: what the plan will do (src/policy/policy.ts preview) and what Home Assistant may also run. */
  effects?: EffectPreview['effects'];
  may_also_run?: EffectPreview['may_also_run'];
}

export interface CommandDeps {
  hub: HubClient;
  /** The home as callers may see it: the parser learns only visible entities. */
  home: HomeView;
  actions: ActionExecutor;
  policy: Policy;
  scenes: SceneService;
  groups: GroupService;
  bus: Bus;
  maxLength: number;
  /** COMMAND_LANGUAGE: a BCP 47 tag, or `auto` for the hub's configured language. */
  language?: string;
  /** Folders of languages (src/nlp/lang by default); a later one's language replaces an earlier one's. */
  languageDirs?: readonly string[];
}

interface Parser {
  lang: LanguageData;
  vocabulary: Lexicon;
}

const CLOSEST = 5;
/** Entities acted on at the same time, as scenes do. */
const PARALLEL = 16;

export class CommandService {
  private pluginWords: Record<string, PluginWords>[] = [];
  private readonly parsers = new Map<string, Parser>();
  private readonly builtIn: Map<string, LanguageData>;
  private home?: { lang: string; home: Home; scenes: string };
  private dirty = true;

  constructor(private readonly deps: CommandDeps) {
    this.builtIn = readLanguages(deps.languageDirs ?? [BUILT_IN_LANGUAGES]);
    const setting = deps.language ?? 'auto';
    if (setting !== 'auto' && !pickLanguage(setting, this.builtIn.keys())) {
      throw invalidParameters(`COMMAND_LANGUAGE: the command parser has no words for ${JSON.stringify(setting)}; it has ${this.languages.join(', ')}`, {
        field: 'COMMAND_LANGUAGE',
        languages: this.languages,
      });
    }
    deps.bus.on('event', (e) => {
      if (e.event_type === EVENT.stateChanged) {
        const d = e.data as unknown as StateChangedData;
        const a = d.old_state?.attributes;
        const b = d.new_state?.attributes;
        if (!a || !b || a.friendly_name !== b.friendly_name || a.device_class !== b.device_class) this.dirty = true;
      } else if (REGISTRY_EVENTS.has(e.event_type) || e.event_type === 'hub_connected') {
        this.dirty = true;
        // The hub client reloads registries a moment after the event; look again once it has.
        setTimeout(() => (this.dirty = true), 600).unref();
      }
    });
  }

  /** The plugins' words, per language (each plugin's `vocabulary`). */
  usePluginWords(list: (Record<string, unknown> | undefined)[]): void {
    this.pluginWords = list.filter((x): x is Record<string, PluginWords> => x !== undefined) as Record<string, PluginWords>[];
    this.parsers.clear();
    this.dirty = true;
  }

  /** The languages the parser has words for. */
  get languages(): string[] {
    return [...this.builtIn.keys()].sort();
  }

  private parser(code: string): Parser {
    let p = this.parsers.get(code);
    if (!p) {
      const lang = languageWith(
        this.builtIn.get(code)!,
        this.pluginWords.map((w) => w[code] ?? {}),
      );
      p = { lang, vocabulary: languageLexicon(lang) };
      this.parsers.set(code, p);
    }
    return p;
  }

  /**
   * The language of a request: the one it names (a BCP 47 tag, de-CH answered in de), else
   * COMMAND_LANGUAGE, else (auto) the hub's own, else English.
   */
  languageOf(input: { language?: string }): string {
    if (input.language !== undefined) {
      const code = pickLanguage(input.language, this.builtIn.keys());
      if (!code)
        throw invalidParameters(
          `language: the command parser has no words for ${JSON.stringify(input.language.slice(0, 35))}; it has ${this.languages.join(', ')}`,
          { field: 'language', languages: this.languages },
        );
      return code;
    }
    const setting = this.deps.language ?? 'auto';
    if (setting !== 'auto') return pickLanguage(setting, this.builtIn.keys())!;
    const hub = this.deps.hub.config?.language;
    return (typeof hub === 'string' && pickLanguage(hub, this.builtIn.keys())) || DEFAULT_LANGUAGE;
  }

  private get units(): Units {
    return { temperature: this.deps.hub.config?.unit_system?.temperature === '°F' ? '°F' : '°C' };
  }

  private currentHome(code: string, p: Parser): Home {
    const scenes = this.deps.scenes.list();
    const groups = this.deps.groups.list();
    const sig = `${scenes.map((s) => s.id).join(',')}|${groups.map((g) => g.id).join(',')}`;
    if (this.dirty || !this.home || this.home.lang !== code || this.home.scenes !== sig) {
      const { hub, home } = this.deps;
      this.dirty = false;
      this.home = { lang: code, scenes: sig, home: buildHome({ states: home.states(), registries: hub.registries, scenes, groups }, p.lang, p.vocabulary) };
    }
    return this.home.home;
  }

  private check(input: CommandInput): string {
    const code = this.languageOf(input);
    if (typeof input.command !== 'string' || !input.command.trim()) throw invalidParameters('command: must be a non-empty string', { field: 'command' });
    if (input.command.length > this.deps.maxLength) {
      throw invalidParameters(`command: is too long: at most ${this.deps.maxLength} characters (COMMAND_MAX_LENGTH; got ${input.command.length})`, {
        field: 'command',
        max_length: this.deps.maxLength,
      });
    }
    return code;
  }

  /** Plans a command without acting (what the benchmark times, and the first half of runCommand). */
  plan(input: CommandInput): Outcome[] {
    const code = this.check(input);
    const p = this.parser(code);
    const { hub } = this.deps;
    const home = this.currentHome(code, p);
    const area = input.context?.area;
    if (area !== undefined && !areaIdOf(home, area)) {
      const areas = [...home.areas.values()].map((a) => a.name);
      const closest = areas
        .map((name) => ({ name, score: similarity(area.toLowerCase(), name.toLowerCase()) }))
        .sort((a, b) => b.score - a.score)
        .slice(0, CLOSEST)
        .map((x) => x.name);
      throw invalidParameters(say(p.lang, 'no_area', { area: quote(area.slice(0, 40), p.lang), names: listOf(closest, p.lang) }), {
        field: 'context.area',
        available_areas: closest,
      });
    }
    return plan(input, {
      ...p,
      home,
      state: (id) => hub.cache.get(id),
      supports: (id, service) => {
        const domain = id.slice(0, id.indexOf('.'));
        const desc = hub.services[domain]?.[service];
        return desc !== undefined && serviceAccepts(desc, domain, hub.cache.get(id));
      },
      units: this.units,
    });
  }

  /** Runs (or with dry_run only plans) a natural-language command for a caller. */
  async runCommand(input: CommandInput, principal?: Principal): Promise<CommandResult> {
    const { hub, actions, policy, scenes, groups } = this.deps;
    const caller: Caller = { principal, confirm: input.confirm };
    if (!hub.isConnected && hub.cache.size === 0) throw hubUnavailable(say(this.parser(this.languageOf(input)).lang, 'hub_unknown'));
    const outcomes = this.plan(input);
    const dry = input.dry_run === true;
    const code = this.languageOf(input);
    const lang = this.parser(code).lang;
    const home = this.currentHome(code, this.parser(code));
    const nameOf = (id: string) => home.entities.get(id)?.name ?? id;

    const refused = outcomes.find((o) => o.kind === 'not_understood');
    if (refused && refused.kind === 'not_understood') throw this.refusal(input.command, refused, outcomes.length > 1, home, lang);
    const ambiguous = outcomes.find((o) => o.kind === 'ambiguous');
    if (ambiguous && ambiguous.kind === 'ambiguous') {
      const candidates = ambiguous.candidates.map((id) => {
        const e = home.entities.get(id)!;
        return { entity_id: id, name: e.name, area: e.area ? (home.areas.get(e.area)?.name ?? null) : null };
      });
      const message = say(lang, 'ambiguous', {
        noun: ambiguous.noun,
        candidates: listOf(
          candidates.map((c) => `${c.name}${c.area ? ` (${c.area})` : ''}`),
          lang,
          'list_or',
        ),
      });
      throw ambiguousError(message, candidates, { noun: ambiguous.noun });
    }

    // Plan every call first, so a refusal (unknown service data, the guard) acts on nothing.
    type Planned =
      | { step: Step; call: PlannedCall }
      | { scene: string; name: string; list: { entity_id: string; action: string; service: string; data: Record<string, unknown> }[] }
      | {
          group: string;
          name: string;
          action: string;
          parameters: Record<string, unknown>;
          list: { entity_id: string; service: string; data: Record<string, unknown> }[];
        };
    const planned: Planned[] = [];
    const queries: Extract<Outcome, { kind: 'query' }>[] = [];
    const guarded: GuardedAction[] = [];
    for (const o of outcomes) {
      if (o.kind === 'query') queries.push(o);
      else if (o.kind === 'act') {
        for (const step of o.steps) {
          const data = input.code !== undefined && CODED.has(step.domain) && !('code' in step.data) ? { ...step.data, code: input.code } : step.data;
          const call = actions.planCall({ domain: step.domain, service: step.service, data, target: { entity_id: step.entity_ids } });
          planned.push({ step, call });
          for (const id of step.entity_ids) guarded.push({ entity_id: id, service: step.service, data: call.data, state: hub.cache.get(id) });
        }
      } else if (o.kind === 'scene') {
        const scene = scenes.get(o.key, 'command');
        const list = scene.actions.map((a) => {
          const p = actions.plan({ entity_id: a.entity_id, action: a.action, parameters: a.parameters }, { allowUnknownEntity: true });
          return { entity_id: a.entity_id, action: a.action, service: p.service, data: p.data };
        });
        planned.push({ scene: o.key, name: o.name, list });
        for (const a of list) guarded.push({ entity_id: a.entity_id, service: a.service, data: a.data, state: hub.cache.get(a.entity_id) });
      } else if (o.kind === 'group') {
        const members = groups.view(o.key).expanded_entities;
        const list = members.map((entity_id) => {
          const p = actions.plan({ entity_id, action: o.action, parameters: o.parameters });
          return { entity_id, service: p.service, data: p.data };
        });
        planned.push({ group: o.key, name: o.name, action: o.action, parameters: o.parameters, list });
        for (const a of list) guarded.push({ entity_id: a.entity_id, service: a.service, data: a.data, state: hub.cache.get(a.entity_id) });
      }
    }
    // What each planned part does, in the request's language ("turn off Kitchen ceiling").
    const doing = (p: Planned) =>
      'call' in p
        ? stepSentence('do', p.step.service, p.call.data, p.step.entity_ids.map(nameOf), lang, this.units.temperature)
        : 'scene' in p
          ? say(lang, 'do.scene', { names: p.name })
          : say(lang, 'do.group', { names: p.name, what: stepSentence('do', p.action, p.parameters, [], lang).replace(/\s+$/, '').trim() });
    // The whole plan passes the checkpoint before any of it runs; a dry run lists what needs
    // confirmation (marked) but still refuses what may not be touched.
    await policy.prepare(guarded);
    try {
      policy.authorize(caller, guarded, { planOnly: dry });
    } catch (err) {
      throw this.policyRefusal(err, planned.map(doing), guarded, nameOf, lang);
    }
    const needs = (entity_id: string, service: string, data: Record<string, unknown>) =>
      policy.confirmationOf({ entity_id, service, data, state: hub.cache.get(entity_id) }) !== undefined ? { needs_confirmation: true } : {};

    // Nothing runs against a hub that is away: 503 before anything, as for device control.
    if (!dry && planned.length && !hub.isConnected) throw hubUnavailable(say(lang, 'hub_away'));

    const out: CommandAction[] = [];
    const errors: AppError[] = [];
    // What the message says, in the command's language: what was done, what could not be and why,
    // what the hub shows where it differs from what was asked.
    const sentences: string[] = [];
    const failedRow = (row: CommandAction, err: unknown): CommandAction => {
      const e = toAppError(err);
      errors.push(e);
      return { ...row, status: 'failed', error: { code: e.code, message: e.message } };
    };
    const notDone = (service: string, data: Record<string, unknown>, rows: { entity_id: string; error?: { message: string } }[]) => {
      for (const [message, list] of groupBy(rows, (r) => r.error?.message ?? '')) {
        sentences.push(
          say(lang, 'failed', {
            what: stepSentence(
              'do',
              service,
              data,
              list.map((r) => nameOf(r.entity_id)),
              lang,
              this.units.temperature,
            ),
            error: message,
          }),
        );
      }
    };
    for (const p of planned) {
      if ('call' in p) {
        const { step, call } = p;
        const row = (entity_id: string): CommandAction => ({
          entity_id,
          action: step.service,
          parameters: call.data,
          status: 'planned',
          ...needs(entity_id, step.service, call.data),
        });
        if (dry) {
          out.push(...step.entity_ids.map(row));
          continue;
        }
        // Each entity is its own call: one that refuses (a lock that wants a code) fails alone.
        const rows = await runEach(step.entity_ids, async (id) => {
          try {
            const r = await actions.runCall({ ...call, target: { entity_id: [id] }, entity_ids: [id] }, caller, { settle: step.entity_ids.length === 1 });
            const e = r.entities.find((x) => x.entity_id === id);
            return { ...row(id), status: 'completed' as const, state: e?.state?.state ?? null, ...verification(e) };
          } catch (err) {
            return failedRow(row(id), err);
          }
        });
        out.push(...rows);
        const ok = rows.filter((r) => r.status === 'completed');
        if (ok.length)
          sentences.push(
            stepSentence(
              'done',
              step.service,
              call.data,
              ok.map((r) => nameOf(r.entity_id)),
              lang,
              this.units.temperature,
            ),
          );
        notDone(
          step.service,
          call.data,
          rows.filter((r) => r.status === 'failed'),
        );
        for (const r of ok) if (r.verified === false) sentences.push(unverifiedNote(lang, nameOf(r.entity_id), r));
      } else {
        if (dry) {
          out.push(
            ...p.list.map((a) => ({
              entity_id: a.entity_id,
              action: a.service,
              parameters: a.data,
              status: 'planned' as const,
              ...needs(a.entity_id, a.service, a.data),
            })),
          );
          continue;
        }
        let results: ActionResult[];
        try {
          results = (
            'scene' in p ? await scenes.activate(p.scene, caller) : await groups.control(p.group, { action: p.action, parameters: p.parameters }, caller)
          ).results;
        } catch (err) {
          // None of its actions succeeded: each one's result is in the error's details.
          const e = toAppError(err);
          const given = (e.details as { results?: ActionResult[] }).results;
          results =
            given ?? p.list.map((a) => ({ entity_id: a.entity_id, action: a.service, status: 'failed' as const, error: { code: e.code, message: e.message } }));
          errors.push(e);
        }
        results.forEach((x, i) => {
          const a = p.list[i]!;
          out.push({
            entity_id: x.entity_id,
            action: a.service,
            parameters: a.data,
            status: x.status,
            ...(x.state !== undefined ? { state: x.state } : {}),
            ...(x.error ? { error: x.error } : {}),
          });
        });
        const failures = results.filter((x) => x.status === 'failed');
        if (failures.length < results.length)
          sentences.push('scene' in p ? say(lang, 'done.scene', { names: p.name }) : stepSentence('done', p.action, p.parameters, [p.name], lang));
        if (failures.length) {
          const what = 'scene' in p ? say(lang, 'do.scene', { names: p.name }) : doing(p);
          sentences.push(
            say(lang, 'failed', {
              what,
              error: `${listOf(
                failures.map((x) => nameOf(x.entity_id)),
                lang,
              )}: ${failures[0]!.error?.message ?? ''}`,
            }),
          );
        }
      }
    }
    const failed = out.filter((a) => a.status === 'failed').length;
    if (failed && failed === out.length) {
      // Nothing was done: the first failure is the answer, with every action's result.
      const first = errors[0] ?? new AppError('HUB_ERROR', 400, 'The hub refused every action');
      throw new AppError(first.code, first.status, sentences.join(' '), { ...first.details, actions: out }, first.headers);
    }
    const answers = queries.map((q) => q.answer);
    const plannedText = dry && planned.length ? say(lang, 'planned', { what: listOf(planned.map(doing), lang) }) : '';
    const message = [plannedText, ...sentences, ...answers].filter(Boolean).join(' ');
    const result: CommandResult = { success: failed === 0, actions: out, message, dry_run: dry };
    if (dry && guarded.length) Object.assign(result, await policy.preview(guarded));
    if (out.length === 1) {
      result.action = out[0]!.action;
      result.device = out[0]!.entity_id;
    }
    if (queries.length) {
      const entities = [...new Set(queries.flatMap((q) => q.entities))];
      const matching = [...new Set(queries.flatMap((q) => q.matching))];
      result.query = { question: queries[0]!.question, entities, matching, answer: answers.join(' ') };
    }
    return result;
  }

  /** The checkpoint's refusal (confirmation, settings), said in the request's language with the same code and details. */
  private policyRefusal(err: unknown, doing: string[], guarded: GuardedAction[], nameOf: (id: string) => string, lang: LanguageData): AppError {
    const e = toAppError(err);
    if (e.code === 'CONFIRMATION_REQUIRED') return new AppError(e.code, e.status, say(lang, 'confirm', { what: listOf(doing, lang) }), e.details, e.headers);
    if (e.code === 'FORBIDDEN') {
      const ids = Array.isArray(e.details.entity_ids) ? (e.details.entity_ids as string[]) : guarded.map((g) => g.entity_id);
      return new AppError(e.code, e.status, say(lang, 'forbidden', { names: listOf([...new Set(ids)].map(nameOf), lang) }), e.details, e.headers);
    }
    return e;
  }

  /** Why nothing was done, in the request's language: code NOT_UNDERSTOOD, details.reason naming the rule. */
  private refusal(command: string, o: Extract<Outcome, { kind: 'not_understood' }>, compound: boolean, home: Home, lang: LanguageData): AppError {
    const words = quoted(o.words, lang);
    const names = (ids: string[] | undefined) =>
      listOf(
        (ids ?? []).map((id) => home.entities.get(id)?.name ?? id),
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
      const closest = this.closest(command, o.words, home);
      details.closest_names = closest;
      if (closest.length) message += ` ${say(lang, 'closest', { names: listOf(closest, lang) })}`;
    }
    return new AppError('NOT_UNDERSTOOD', 422, message, details);
  }

  private closest(command: string, words: string[], home: Home): string[] {
    const probe = (words.length ? words.join(' ') : command).toLowerCase();
    return home.known
      .map((name) => ({ name, score: Math.max(similarity(probe, name.toLowerCase()), ...words.map((w) => similarity(w, name.toLowerCase()))) }))
      .sort((a, b) => b.score - a.score || a.name.localeCompare(b.name))
      .slice(0, CLOSEST)
      .map((x) => x.name);
  }
}

/** Runs `fn` for each id, a few at a time, answering in the order given. */
async function runEach<T>(ids: string[], fn: (id: string) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(ids.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < ids.length; i = next++) out[i] = await fn(ids[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, ids.length) }, worker));
  return out;
}

function groupBy<T>(list: T[], key: (x: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const x of list) {
    const k = key(x);
    groups.set(k, [...(groups.get(k) ?? []), x]);
  }
  return groups;
}

/** The executor's verdict as a command action carries it: expected and actual only when it differs. */
function verification(e: Partial<Verification> | undefined): Partial<CommandAction> {
  if (e?.verified === undefined) return {};
  if (e.verified) return { verified: true };
  return { verified: false, ...(e.pending ? { pending: true } : {}), expected: e.expected, actual: e.actual };
}

/** "Garage Side Door is jammed, not locked." / "Living Room Blinds is still opening." */
function unverifiedNote(lang: LanguageData, name: string, a: CommandAction): string {
  const word = (v: unknown) => lang.messages[`state.${String(v)}`] ?? String(v);
  const shown = (x: Record<string, unknown> | undefined) =>
    Object.entries(x ?? {})
      .map(([k, v]) => (k === 'state' ? word(v) : `${k.replace(/_/g, ' ')} ${String(v)}`))
      .join(', ');
  return say(lang, a.pending ? 'pending' : 'unverified', { name, actual: shown(a.actual), expected: shown(a.expected) });
}
