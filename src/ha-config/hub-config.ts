// Home Assistant's own config API, the only way the bridge reads and writes automations, scripts,
// helpers and dashboards: REST /api/config/{automation,script}/config/<id> (Home Assistant checks
// and stores the item, then reloads it), the helpers' <type>/create|update|delete commands, and
// lovelace/config(/save). What Home Assistant refuses comes back in plain words with the same
// meaning (its own message kept in details.hub_message).
import { AppError, invalidParameters, notFound } from '../errors.js';
import type { RestAnswer } from '../hub/reader.js';

export type Json = Record<string, unknown>;

export const HELPER_TYPES = ['input_boolean', 'input_number', 'input_select', 'input_text', 'input_datetime', 'input_button', 'counter', 'timer'] as const;
export type HelperType = (typeof HELPER_TYPES)[number];

/** Home Assistant's validation messages (probatio and voluptuous), said plainly. */
export function plainWords(message: string): string {
  return message
    .replace(/^Message malformed: /, '')
    .split('\n')
    .map((line) => {
      const m = (re: RegExp) => re.exec(line);
      let x: RegExpExecArray | null;
      if ((x = m(/^required key not provided (?:at '([^']+)'|@ data\[(.+)\])(?:\. Got .*)?$/))) return `${x[1] ?? x[2]} is required and missing`;
      if ((x = m(/^(?:not a valid option|extra keys not allowed)(?:, did you mean (.+)\?)? (?:at '([^']+)'|@ data\[(.+)\])(?:\. Got .*)?$/)))
        return `${x[2] ?? x[3]} is not a setting Home Assistant knows here${x[1] ? ` (did you mean ${x[1]!.replace(/'/g, '')}?)` : ''}`;
      if ((x = m(/^Invalid trigger '(.+)' specified$/))) return `there is no trigger type "${x[1]}"`;
      if ((x = m(/^Invalid condition "(.+)" specified$/))) return `there is no condition type "${x[1]}"`;
      if ((x = m(/^Unable to determine action at '([^']+)'$/)))
        return `${x[1]} is not an action Home Assistant recognises (an action needs a key such as action, delay, event or condition)`;
      if ((x = m(/^Service (.+) does not match format <domain>\.<name> at '([^']+)'$/)))
        return `${x[2]}: "${x[1]}" is not an action name (write it as domain.name, such as light.turn_on)`;
      if ((x = m(/^value must be one of (\[.*\]) at '([^']+)'(?:\. Got .*)?$/))) return `${x[2]} must be one of ${x[1]!.replace(/'/g, '')}`;
      if ((x = m(/^expected (\w+) at '([^']+)'(?:\. Got (.*))?$/)))
        return `${x[2]} must be a ${({ int: 'whole number', float: 'number', str: 'text', bool: 'true or false', list: 'list' } as Record<string, string>)[x[1]!] ?? x[1]}${x[3] ? ` (it was ${x[3]})` : ''}`;
      if ((x = m(/^Entity (.+) is neither a valid entity ID nor a valid UUID at '([^']+)'$/)))
        return `${x[2]}: "${x[1]}" is not an entity id (domain.object_id in lower case)`;
      if ((x = m(/^invalid slug (.+) \(try (.+)\)$/))) return `"${x[1]}" cannot be an id: use lower case letters, digits and _ (such as ${x[2]})`;
      return line.replace(/\. Got .*$/, '');
    })
    .join('; ');
}

const refused = (what: string, hubMessage: string, status = 400) =>
  new AppError('INVALID_PARAMETERS', status, `Home Assistant refused ${what}: ${plainWords(hubMessage)}`, { hub_message: hubMessage });

/** A hub command's refusal, said plainly. */
function commandRefused(err: unknown, what: string): AppError {
  if (!(err instanceof AppError)) return new AppError('HUB_ERROR', 502, `Home Assistant failed ${what}`);
  const code = err.details.hub_code;
  const message = String(err.details.hub_message ?? err.message);
  if (code === 'unknown_command')
    return new AppError('HUB_ERROR', 501, `Home Assistant does not answer ${what}: the integration is not loaded`, { ...err.details });
  if (code === 'invalid_format' || code === 'home_assistant_error') return refused(what, message);
  if (code === 'not_found') return new AppError('NOT_FOUND', 404, `Home Assistant has no such item: ${message}`, { ...err.details });
  return err;
}

/**
 * The two ways to Home Assistant's config API, lent by the config service (which holds the acting
 * hub, src/hub/acting.ts) to this adapter of its own: any WebSocket command, and REST with any method.
 */
export interface ConfigChannel {
  command<T>(message: { type: string; [k: string]: unknown }): Promise<T>;
  rest(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<RestAnswer>;
}

export class HubConfig {
  private readonly hub: Pick<ConfigChannel, 'command'>;
  private readonly rest: { request: ConfigChannel['rest'] };

  constructor(channel: ConfigChannel) {
    this.hub = { command: (m) => channel.command(m) };
    this.rest = { request: (method, path, body) => channel.rest(method, path, body) };
  }

  private async command<T>(message: { type: string; [k: string]: unknown }, what: string): Promise<T> {
    try {
      return await this.hub.command<T>(message);
    } catch (err) {
      if (err instanceof AppError && err.code === 'CONNECTION_ERROR') throw err;
      throw commandRefused(err, what);
    }
  }

  // --- automations and scripts (REST config views) --------------------------------------------

  /** The item as Home Assistant stores it, or null when there is none. */
  async stored(kind: 'automation' | 'script', id: string): Promise<Json | null> {
    const r = await this.rest.request('GET', `/api/config/${kind}/config/${encodeURIComponent(id)}`);
    if (r.status === 404) return null;
    if (r.status === 401 || r.status === 403)
      throw new AppError('HUB_ERROR', 403, `Home Assistant refused to show the ${kind}: the bridge's token is not an administrator's`, {
        hub_status: r.status,
      });
    if (r.status !== 200 || typeof r.json !== 'object' || r.json === null)
      throw new AppError('HUB_ERROR', 502, `Home Assistant answered ${r.status} when asked for ${kind} ${id}`, { hub_status: r.status });
    return r.json as Json;
  }

  /** Writes an item; Home Assistant checks it first and reloads it after it answers. */
  async write(kind: 'automation' | 'script', id: string, config: Json): Promise<void> {
    const r = await this.rest.request('POST', `/api/config/${kind}/config/${encodeURIComponent(id)}`, config);
    if (r.status === 200) return;
    const message = typeof (r.json as Json | undefined)?.message === 'string' ? String((r.json as Json).message) : '';
    if (r.status === 400 && message) throw refused(`the ${kind}`, message.replace(/^Key malformed: /, ''));
    if (r.status === 401)
      throw new AppError('HUB_ERROR', 403, `Home Assistant refused to change the ${kind}: the bridge's token is not an administrator's`, {
        hub_status: r.status,
      });
    throw new AppError(
      'HUB_ERROR',
      502,
      `Home Assistant failed to store the ${kind} (${r.status}); it is probably not valid there (${kind === 'automation' ? 'an automation' : 'a script'} is an object of settings)`,
      { hub_status: r.status },
    );
  }

  async remove(kind: 'automation' | 'script', id: string): Promise<void> {
    const r = await this.rest.request('DELETE', `/api/config/${kind}/config/${encodeURIComponent(id)}`);
    if (r.status === 200) return;
    if (r.status === 400 || r.status === 404) throw notFound(`Home Assistant has no ${kind} ${id}`, { kind, id });
    throw new AppError('HUB_ERROR', 502, `Home Assistant failed to delete the ${kind} (${r.status})`, { hub_status: r.status });
  }

  /** The config an automation or script entity runs now (what Home Assistant loaded at its last reload). */
  async loaded(kind: 'automation' | 'script', entityId: string): Promise<Json | null> {
    try {
      const r = await this.hub.command<{ config: Json | null }>({ type: `${kind}/config`, entity_id: entityId });
      return r.config ?? null;
    } catch (err) {
      if (err instanceof AppError && err.details.hub_code === 'not_found') return null;
      throw err;
    }
  }

  // --- traces ----------------------------------------------------------------------------------

  traceList<T>(domain: 'automation' | 'script', itemId: string): Promise<T[]> {
    return this.command<T[]>({ type: 'trace/list', domain, item_id: itemId }, 'trace/list');
  }

  async traceGet<T>(domain: 'automation' | 'script', itemId: string, runId: string): Promise<T | null> {
    try {
      return await this.hub.command<T>({ type: 'trace/get', domain, item_id: itemId, run_id: runId });
    } catch (err) {
      if (err instanceof AppError && err.details.hub_code === 'not_found') return null;
      throw commandRefused(err, 'trace/get');
    }
  }

  // --- helpers (storage collections) -------------------------------------------------------------

  helpers(type: HelperType): Promise<Json[]> {
    return this.command<Json[]>({ type: `${type}/list` }, `${type}/list`);
  }

  createHelper(type: HelperType, fields: Json): Promise<Json> {
    return this.command<Json>({ ...fields, type: `${type}/create` }, `the ${type} helper`);
  }

  updateHelper(type: HelperType, id: string, fields: Json): Promise<Json> {
    return this.command<Json>({ ...fields, type: `${type}/update`, [`${type}_id`]: id }, `the ${type} helper`);
  }

  async deleteHelper(type: HelperType, id: string): Promise<void> {
    await this.command<unknown>({ type: `${type}/delete`, [`${type}_id`]: id }, `deleting the ${type} helper`);
  }

  // --- dashboards ----------------------------------------------------------------------------------

  dashboards(): Promise<Json[]> {
    return this.command<Json[]>({ type: 'lovelace/dashboards/list' }, 'lovelace/dashboards/list');
  }

  /** A dashboard's config, or null when it has none saved yet. */
  async dashboard(urlPath: string | null): Promise<Json | null> {
    try {
      const config = await this.hub.command<unknown>({ type: 'lovelace/config', url_path: urlPath });
      if (typeof config !== 'object' || config === null || Array.isArray(config))
        throw new AppError('HUB_ERROR', 409, "The dashboard's config is not an object the bridge can edit; change it in Home Assistant");
      return config as Json;
    } catch (err) {
      if (err instanceof AppError && err.details.hub_code === 'config_not_found') {
        if (String(err.details.hub_message).startsWith('Unknown config')) throw notFound(`Home Assistant has no dashboard ${urlPath}`, { id: urlPath });
        return null;
      }
      if (err instanceof AppError && err.code !== 'CONNECTION_ERROR' && err.details.hub_code !== undefined) throw commandRefused(err, 'lovelace/config');
      throw err;
    }
  }

  async saveDashboard(urlPath: string | null, config: Json): Promise<void> {
    await this.command<unknown>({ type: 'lovelace/config/save', url_path: urlPath, config }, 'the dashboard');
  }

  async deleteDashboardConfig(urlPath: string | null): Promise<void> {
    await this.command<unknown>({ type: 'lovelace/config/delete', url_path: urlPath }, 'the dashboard');
  }
}

/** An automation's config in the order Home Assistant stores it (config/automation.py's _write_value). */
export function storedAutomation(id: string, config: Json): Json {
  const { id: _ignored, ...rest } = config;
  const out: Json = { id };
  for (const key of ['alias', 'description', 'triggers', 'trigger', 'conditions', 'condition', 'actions', 'action']) if (key in rest) out[key] = rest[key];
  return Object.assign(out, rest, { id });
}

export const isHelperType = (x: string): x is HelperType => (HELPER_TYPES as readonly string[]).includes(x);

/** A helper's id as the bridge names it (`input_boolean.guest_mode`), split. */
export function helperRef(id: string): { type: HelperType; itemId: string } {
  const dot = id.indexOf('.');
  const type = dot < 0 ? id : id.slice(0, dot);
  if (!isHelperType(type))
    throw invalidParameters(`id: a helper is named <type>.<id> with the type one of ${HELPER_TYPES.join(', ')} (got ${JSON.stringify(id.slice(0, 60))})`, {
      field: 'id',
    });
  return { type, itemId: dot < 0 ? '' : id.slice(dot + 1) };
}
