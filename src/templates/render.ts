// Rendering a Home Assistant template for a caller, read-only. Home Assistant's template engine
// (2026.11) has no way to call a service, fire an event or write a state: a template only reads.
// What it may read is the question: a template can name any entity, build ids from pieces, loop
// over every state, or list a registry's entities. So with entities hidden from callers
// (TOOLS_EXPOSED_ONLY) a rendering is answered only when everything it read is visible to the
// caller, judged from what Home Assistant itself says it read (`listeners`: entities, whole
// domains, all states), the registry helpers that list ids without reading states are refused
// before rendering, and the result is searched for hidden ids as a last check. With nothing
// hidden, every template the hub renders is answered. Time is limited twice (the hub's own
// `timeout`, and our wait for an answer), and the result is cut at TEMPLATE_MAX_OUTPUT.
import { AppError, hubUnavailable, invalidParameters } from '../errors.js';
import type { HubReader, RenderedTemplate } from '../hub/reader.js';
import { CREDENTIAL_DOMAINS, quotesCredential } from '../hub/credentials.js';
import type { Policy } from '../policy/policy.js';

/** Longest template taken. */
export const MAX_TEMPLATE = 8192;
/** The hub's render limit in seconds, when none is asked for, and the most that may be asked. */
export const DEFAULT_TIMEOUT_S = 5;
export const MAX_TIMEOUT_S = 30;
/** How much longer than the hub's limit we wait for its answer. */
const GRACE_MS = 2000;

/**
 * Template helpers that read the registries (ids of entities and devices by area, floor, label,
 * device or integration) rather than states: Home Assistant does not list what they read, so they
 * are refused while any entity is hidden.
 */
export const REGISTRY_HELPERS = [
  'area_entities',
  'area_devices',
  'floor_entities',
  'floor_areas',
  'label_entities',
  'label_devices',
  'label_areas',
  'device_entities',
  'device_attr',
  'device_id',
  'integration_entities',
  'config_entry_id',
  'config_entry_attr',
  // These take an entity id too, and answer its area, floor, labels or hiding without reading its state.
  'area_id',
  'area_name',
  'floor_id',
  'floor_name',
  'labels',
  'is_hidden_entity',
  'is_device_attr',
];
const REGISTRY_RE = new RegExp(`\\b(${REGISTRY_HELPERS.join('|')})\\b`);
const ENTITY_ID_RE = /\b[a-z0-9_]+\.[a-z0-9_]+\b/g;

export interface RenderAnswer {
  /** What the template rendered to (Home Assistant turns a result that reads as a number, list or mapping into one). */
  result: unknown;
  /** The entities it read. */
  entities: string[];
  /** Whole domains it read (`states.light`). */
  domains: string[];
  /** It read every state (`states` looped over). */
  all_states: boolean;
  /** It reads the time (now()): rendered again later it may differ. */
  time: boolean;
  truncated: boolean;
  warnings: string[];
}

const credentialsRead = () =>
  new AppError(
    'FORBIDDEN',
    403,
    "The template reads cameras, images or media players, whose states in Home Assistant carry credentials, so its result is not shown; other tools answer what they show (states, snapshots), or name another entity's domain (states.light)",
    { field: 'template', credentials: true },
  );

/** A message of the hub's that cannot quote a state: the template did not parse (nothing was read). */
const SYNTAX_ERROR = /^TemplateSyntaxError: /;

/**
 * The hub's refusal of a template, as the caller's error. A template that fails while rendering is
 * answered without saying what it read, and its message quotes the value it could not use
 * (`int got invalid input 'locked'`): with entities hidden, only a syntax error's message is shown.
 */
function failed(message: string, anyHidden: boolean): AppError {
  if (quotesCredential(message)) return credentialsRead();
  if (!anyHidden || SYNTAX_ERROR.test(message)) return invalidParameters(`template: ${message}`, { field: 'template', hub_message: message });
  return new AppError(
    'FORBIDDEN',
    403,
    'The template failed while rendering; its error is not shown, since it may quote what the template read and Home Assistant hides entities from Assist (TOOLS_EXPOSED_ONLY)',
    { field: 'template', exposed: false, error_withheld: true },
  );
}

export class TemplateRenderer {
  constructor(
    private readonly hub: HubReader,
    private readonly policy: Policy,
    private readonly opts: { maxOutput: number },
  ) {}

  /** Whether any entity the hub has is hidden from callers. */
  private anyHidden(ids: Iterable<string> = this.hub.cache.ids()): string[] {
    const out: string[] = [];
    for (const id of ids) if (!this.policy.maySee(id)) out.push(id);
    return out;
  }

  async render(template: unknown, timeout?: unknown): Promise<RenderAnswer> {
    if (typeof template !== 'string' || !template.trim()) throw invalidParameters('template: must be a non-empty string', { field: 'template' });
    if (template.length > MAX_TEMPLATE)
      throw invalidParameters(`template: is too long: at most ${MAX_TEMPLATE} characters (got ${template.length})`, { field: 'template' });
    const timeoutS = timeout === undefined ? DEFAULT_TIMEOUT_S : Number(timeout);
    if (!Number.isFinite(timeoutS) || timeoutS <= 0 || timeoutS > MAX_TIMEOUT_S)
      throw invalidParameters(`timeout: must be a number of seconds above 0 and at most ${MAX_TIMEOUT_S}`, { field: 'timeout' });
    if (!this.hub.isConnected) throw hubUnavailable();
    const hiddenNow = this.anyHidden();
    if (hiddenNow.length && REGISTRY_RE.test(template)) {
      const helper = REGISTRY_RE.exec(template)![1];
      throw new AppError(
        'FORBIDDEN',
        403,
        `${helper}() lists entities from Home Assistant's registries, which would show entities it does not expose to Assist (TOOLS_EXPOSED_ONLY); name the entities instead`,
        { field: 'template', helper, exposed: false },
      );
    }
    let answer: RenderedTemplate;
    try {
      answer = await this.hub.renderTemplate(template, { timeoutS, waitMs: timeoutS * 1000 + GRACE_MS });
    } catch (err) {
      // The hub refuses a template it cannot parse or that would render past its limit: template_error.
      if (err instanceof AppError && err.details.hub_code === 'template_error') throw failed(err.message, hiddenNow.length > 0);
      throw err;
    }
    if (answer.error !== undefined) throw failed(answer.error, hiddenNow.length > 0);
    const l = answer.listeners ?? {};
    const entities = [...new Set((l.entities ?? []).map((id) => id.toLowerCase()))];
    const domains = [...new Set(l.domains ?? [])];
    if (hiddenNow.length) {
      const hidden = new Set(hiddenNow);
      const read = l.all
        ? hiddenNow
        : [...entities.filter((id) => hidden.has(id)), ...hiddenNow.filter((id) => domains.includes(id.slice(0, id.indexOf('.'))))];
      const shown = JSON.stringify(answer.result ?? null).match(ENTITY_ID_RE) ?? [];
      const named = shown.filter((id) => hidden.has(id));
      if (read.length || named.length) {
        throw new AppError(
          'FORBIDDEN',
          403,
          `The template ${read.length ? 'reads' : 'shows'} ${read.length || named.length} ${read.length + named.length === 1 ? 'entity' : 'entities'} that Home Assistant does not expose to Assist (TOOLS_EXPOSED_ONLY), so its result is not shown`,
          { field: 'template', exposed: false, count: new Set([...read, ...named]).size, ...(l.all ? { all_states: true } : {}) },
        );
      }
    }
    // Home Assistant's engine reads states with their credentials (a camera's access_token): a template reading any is not answered.
    const credentialed = (id: string) => CREDENTIAL_DOMAINS.has(id.slice(0, id.indexOf('.')));
    if (
      entities.some(credentialed) ||
      domains.some((d) => CREDENTIAL_DOMAINS.has(d.toLowerCase())) ||
      (l.all === true && [...this.hub.cache.ids()].some(credentialed)) ||
      quotesCredential(JSON.stringify([answer.result ?? null, answer.warnings]))
    )
      throw credentialsRead();
    let result = answer.result ?? null;
    const text = typeof result === 'string' ? result : JSON.stringify(result);
    const truncated = text.length > this.opts.maxOutput;
    if (truncated) result = text.slice(0, this.opts.maxOutput);
    return { result, entities, domains, all_states: l.all === true, time: l.time === true, truncated, warnings: answer.warnings };
  }
}
