// The command service: one entrance for natural-language commands (REST, WebSocket, the MCP tool).
// It keeps the parser's picture of the home current and answers a command: planned through the
// executor (command-parts.ts), held to the checkpoint (command-guard.ts), run (command-run.ts) and
// worded in the request's language (command-words.ts), or only planned.
import type { ActionExecutor } from '../actions/executor.js';
import type { Principal } from '../auth/tokens.js';
import type { Bus } from '../bus.js';
import { AppError, hubUnavailable, invalidParameters } from '../errors.js';
import type { GroupService } from '../groups/service.js';
import type { HubReader } from '../hub/reader.js';
import { EVENT } from '../hub/protocol.js';
import { REGISTRY_EVENTS } from '../hub/registries.js';
import { serviceAccepts } from '../hub/service-fields.js';
import { similarity } from '../hub/similar.js';
import type { StateChangedData } from '../hub/types.js';
import type { HomeView } from '../policy/home-view.js';
import type { Caller, EffectPreview, Policy } from '../policy/policy.js';
import type { SceneService } from '../scenes/service.js';
import type { Units } from './act.js';
import { buildHome, type Home } from './home.js';
import { BUILT_IN_LANGUAGES, DEFAULT_LANGUAGE, languageWith, pickLanguage, readLanguages, type LanguageData, type PluginWords } from './language.js';
import { languageLexicon, type Lexicon } from './lexicon.js';
import { plan, type Outcome } from './plan.js';
import { listOf, quote, say } from './reply.js';
import { areaIdOf } from './targets.js';
import { guard } from './command-guard.js';
import { planParts } from './command-parts.js';
import { type CommandAction, runParts } from './command-run.js';
import { CommandWords } from './command-words.js';
import { answerPast, type PastDeps } from './history-answer.js';
import { runSaying, type ToolAnswer } from './saying-run.js';
import { dateWordsOf, matchSaying, type Named } from './sayings.js';

export type { CommandAction } from './command-run.js';

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
  hub: HubReader;
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
  /** The plugins' words, per language (each plugin's `words`, checked as the parser reads them when the plugins were read). */
  pluginWords?: readonly Record<string, Record<string, unknown>>[];
  /** Runs a plugin's tool for a caller, for sentences that ask one; without it no saying is answered. */
  tools?: ToolCaller;
}

interface Parser {
  lang: LanguageData;
  vocabulary: Lexicon;
}

const CLOSEST = 5;

/** Calls a tool for a caller (the tool registry's call), for sentences that ask a plugin's tool. */
export type ToolCaller = (name: string, args: Record<string, unknown>, principal?: Principal) => Promise<ToolAnswer>;

export class CommandService {
  private readonly pluginWords: readonly Record<string, PluginWords>[];
  private readonly parsers = new Map<string, Parser>();
  private readonly builtIn: Map<string, LanguageData>;
  private home?: { lang: string; home: Home; scenes: string };
  private dirty = true;

  constructor(private readonly deps: CommandDeps) {
    this.builtIn = readLanguages(deps.languageDirs ?? [BUILT_IN_LANGUAGES]);
    this.pluginWords = (deps.pluginWords ?? []) as readonly Record<string, PluginWords>[];
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

  /**
   * Runs (or with dry_run only plans) a natural-language command for a caller: the parser's plan,
   * planned through the executor (command-parts.ts), held to the checkpoint whole (command-guard.ts),
   * run part by part (command-run.ts), and answered in the request's language (command-words.ts).
   */
  async runCommand(input: CommandInput, principal?: Principal): Promise<CommandResult> {
    const { hub, actions, policy } = this.deps;
    const caller: Caller = { principal, confirm: input.confirm };
    if (!hub.isConnected && hub.cache.size === 0) throw hubUnavailable(say(this.parser(this.languageOf(input)).lang, 'hub_unknown'));
    const said = await this.answerSaying(input, principal);
    if (said) return said;
    const outcomes = this.plan(input);
    const dry = input.dry_run === true;
    const code = this.languageOf(input);
    const lang = this.parser(code).lang;
    const words = new CommandWords(lang, this.currentHome(code, this.parser(code)), this.units.temperature);

    const refused = outcomes.find((o) => o.kind === 'not_understood');
    if (refused && refused.kind === 'not_understood') throw words.notUnderstood(input.command, refused, outcomes.length > 1);
    const ambiguous = outcomes.find((o) => o.kind === 'ambiguous');
    if (ambiguous && ambiguous.kind === 'ambiguous') throw words.ambiguity(ambiguous);

    const planned = planParts(outcomes, input.code, this.deps);
    const needs = await guard(this.deps, caller, planned, dry, words);
    // Nothing runs against a hub that is away: 503 before anything, as for device control.
    if (!dry && planned.parts.length && !hub.isConnected) throw hubUnavailable(say(lang, 'hub_away'));
    const { actions: out, errors, sentences } = await runParts(planned.parts, this.deps, { caller, dry, needs, words });

    const failed = out.filter((a) => a.status === 'failed').length;
    if (failed && failed === out.length) {
      // Nothing was done: the first failure is the answer, with every action's result.
      const first = errors[0] ?? new AppError('HUB_ERROR', 400, 'The hub refused every action');
      throw new AppError(first.code, first.status, sentences.join(' '), { ...first.details, actions: out }, first.headers);
    }
    const { queries } = planned;
    // Questions about the past: read from the recorder through the history tool, for the caller.
    for (const q of queries) if (q.history) Object.assign(q, await answerPast(q.history, q.entities, this.pastDeps(code, principal)));
    const answers = queries.map((q) => q.answer);
    const plannedText =
      dry && planned.parts.length
        ? say(lang, 'planned', {
            what: listOf(
              planned.parts.map((p) => words.doing(p)),
              lang,
            ),
          })
        : '';
    const message = [plannedText, ...sentences, ...answers].filter(Boolean).join(' ');
    const result: CommandResult = { success: failed === 0, actions: out, message, dry_run: dry };
    const guarded = dry ? actions.guarded(planned.plans) : [];
    if (guarded.length) Object.assign(result, await policy.preview(guarded));
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

  /** What answering a question about the past needs: the tool call for the caller, the home's names and zone, the clock. */
  private pastDeps(code: string, principal?: Principal): PastDeps {
    const p = this.parser(code);
    const home = this.currentHome(code, p);
    const call = this.deps.tools;
    return {
      call: call && ((tool, args) => call(tool, args, principal)),
      entity: (id) => home.entities.get(id),
      name: (id) => home.entities.get(id)?.name ?? id,
      zone: typeof this.deps.hub.config?.time_zone === 'string' ? this.deps.hub.config.time_zone : 'UTC',
      lang: p.lang,
      now: Date.now(),
    };
  }

  /**
   * A sentence that asks a plugin's tool (src/nlp/sayings.ts: a to-do list, a calendar, the weather,
   * energy totals), answered through that tool for the caller; undefined when no saying fits it.
   */
  private async answerSaying(input: CommandInput, principal?: Principal): Promise<CommandResult | undefined> {
    const call = this.deps.tools;
    if (!call) return undefined;
    const code = this.check(input);
    const { lang } = this.parser(code);
    if (!lang.sayings.length) return undefined;
    const zone = typeof this.deps.hub.config?.time_zone === 'string' ? this.deps.hub.config.time_zone : 'UTC';
    const name = (id: string) => {
      const n = this.deps.home.state(id)?.attributes.friendly_name;
      return typeof n === 'string' && n ? n : id;
    };
    const entities = (domain: 'todo' | 'calendar' | 'weather'): Named[] =>
      this.deps.home
        .states()
        .filter((x) => x.entity_id.startsWith(`${domain}.`))
        .map((x) => ({ entity_id: x.entity_id, name: name(x.entity_id) }));
    const now = new Date();
    const date = new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(now);
    const weekday = (new Date(`${date}T12:00:00Z`).getUTCDay() + 6) % 7;
    const m = matchSaying(
      input.command,
      { sayings: lang.sayings, dates: dateWordsOf(lang), aliases: lang.aliases, kinds: lang.named_kinds },
      { entities, today: { date, weekday } },
    );
    if (!m) return undefined;
    // An answer to an earlier "which list/calendar?": the entity chosen.
    const chosen = input.choose;
    if (chosen !== undefined) {
      const domain = m.saying.tool === 'calendar' || m.saying.tool === 'weather' ? m.saying.tool : 'todo';
      const found = entities(domain).find((e) => e.entity_id === chosen);
      if (!found)
        throw invalidParameters(`choose: ${chosen.slice(0, 80)} is not a ${domain} entity this command can use`, {
          field: 'choose',
          candidates: entities(domain).map((e) => e.entity_id),
        });
      if (domain === 'todo') m.slots.list = found;
      else m.slots[domain] = found;
    }
    const dry = input.dry_run === true;
    const r = await runSaying(m, { call: (tool, args) => call(tool, args, principal), entities, name, zone, lang, dry }, date);
    const result: CommandResult = { success: true, actions: [], message: r.message, dry_run: dry };
    if (r.acted) {
      result.actions = [{ ...r.acted, status: dry ? 'planned' : 'completed' }];
      result.action = r.acted.action;
      result.device = r.acted.entity_id;
    } else {
      result.query = { question: `${m.saying.tool}.${String(m.args.operation)}`, entities: r.entities, matching: r.entities, answer: r.message };
    }
    return result;
  }
}
