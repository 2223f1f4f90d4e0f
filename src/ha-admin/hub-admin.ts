// Home Assistant's own commands for looking after itself, and nothing else: the registries'
// list/create/update/delete, entity exposure, the zone collection, repairs, the error log, system
// health, config entries, blueprints, an update's release notes and the service calls that install
// an update or restart and reload the core. What Home Assistant refuses comes back in plain words.
import { AppError } from '../errors.js';
import type { HubReader } from '../hub/reader.js';
import { plainWords, type ConfigChannel } from '../ha-config/hub-config.js';

export type Json = Record<string, unknown>;

function refusedBy(err: unknown, what: string): unknown {
  if (!(err instanceof AppError) || err.code === 'CONNECTION_ERROR') return err;
  const code = err.details.hub_code;
  const message = String(err.details.hub_message ?? err.message);
  if (code === 'unknown_command')
    return new AppError('HUB_ERROR', 501, `Home Assistant does not answer ${what}: its integration is not loaded or this version lacks it`, { ...err.details });
  if (code === 'not_found' || (code === 'invalid_info' && /doesn't exist|^'.*'$/.test(message)))
    return new AppError('NOT_FOUND', 404, `Home Assistant has no such item (${what}): ${message}`, { ...err.details });
  if (code === 'invalid_info' || code === 'invalid_format' || code === 'home_assistant_error')
    return new AppError('INVALID_PARAMETERS', 400, `Home Assistant refused ${what}: ${plainWords(message)}`, { ...err.details });
  return err;
}

export class HubAdmin {
  /** `channel`: lent by the config service, which runs every change through the checkpoint; `reader`: the read-only view. */
  constructor(
    private readonly channel: ConfigChannel,
    private readonly reader: Pick<HubReader, 'collect'>,
  ) {}

  async command<T>(message: { type: string; [k: string]: unknown }, what = message.type): Promise<T> {
    try {
      return await this.channel.command<T>(message);
    } catch (err) {
      throw refusedBy(err, what);
    }
  }

  list<T = Json>(registry: 'area' | 'floor' | 'label' | 'device' | 'entity'): Promise<T[]> {
    return this.command<T[]>({ type: `config/${registry}_registry/list` });
  }

  create(registry: 'area' | 'floor' | 'label', fields: Json): Promise<Json> {
    return this.command<Json>({ type: `config/${registry}_registry/create`, ...fields }, `creating the ${registry}`);
  }

  update(registry: 'area' | 'floor' | 'label' | 'device' | 'entity', id: string, fields: Json): Promise<Json> {
    const key = registry === 'device' ? 'device_id' : registry === 'entity' ? 'entity_id' : `${registry}_id`;
    return this.command<Json>({ type: `config/${registry}_registry/update`, [key]: id, ...fields }, `changing the ${registry} ${id}`);
  }

  async remove(registry: 'area' | 'floor' | 'label', id: string): Promise<void> {
    await this.command({ type: `config/${registry}_registry/delete`, [`${registry}_id`]: id }, `removing the ${registry} ${id}`);
  }

  /** Which entities Home Assistant exposes to Assist (conversation). */
  async exposed(): Promise<Map<string, boolean>> {
    const r = await this.command<{ exposed_entities: Record<string, Record<string, boolean>> }>({ type: 'homeassistant/expose_entity/list' });
    return new Map(Object.entries(r.exposed_entities).map(([id, to]) => [id, to.conversation === true]));
  }

  async expose(entityId: string, expose: boolean): Promise<void> {
    await this.command(
      { type: 'homeassistant/expose_entity', assistants: ['conversation'], entity_ids: [entityId], should_expose: expose },
      `${expose ? 'exposing' : 'hiding'} ${entityId} ${expose ? 'to' : 'from'} Assist`,
    );
  }

  zones(): Promise<Json[]> {
    return this.command<Json[]>({ type: 'zone/list' });
  }

  zoneCreate(fields: Json): Promise<Json> {
    return this.command<Json>({ type: 'zone/create', ...fields }, 'creating the zone');
  }

  zoneUpdate(id: string, fields: Json): Promise<Json> {
    return this.command<Json>({ type: 'zone/update', zone_id: id, ...fields }, `changing the zone ${id}`);
  }

  async zoneDelete(id: string): Promise<void> {
    await this.command({ type: 'zone/delete', zone_id: id }, `removing the zone ${id}`);
  }

  async issues(): Promise<Json[]> {
    return (await this.command<{ issues: Json[] }>({ type: 'repairs/list_issues' })).issues;
  }

  async ignoreIssue(domain: string, issueId: string, ignore: boolean): Promise<void> {
    await this.command(
      { type: 'repairs/ignore_issue', domain, issue_id: issueId, ignore },
      `${ignore ? 'dismissing' : 'bringing back'} the repair ${domain}/${issueId}`,
    );
  }

  logEntries(): Promise<Json[]> {
    return this.command<Json[]>({ type: 'system_log/list' });
  }

  /** system_health/info answers as a subscription: the initial data, updates of what was pending, then "finish". */
  async systemHealth(): Promise<Record<string, Json>> {
    type Event =
      | { type: 'initial'; data: Record<string, { info: Json }> }
      | { type: 'update'; domain: string; key: string; data?: unknown }
      | { type: 'finish' };
    let events: Event[];
    try {
      events = await this.reader.collect<Event>({ type: 'system_health/info' }, (e) => e.type === 'finish');
    } catch (err) {
      throw refusedBy(err, 'system_health/info');
    }
    const out: Record<string, Json> = {};
    for (const e of events) {
      if (e.type === 'initial') for (const [domain, d] of Object.entries(e.data)) out[domain] = { ...d.info };
      else if (e.type === 'update') out[e.domain] = { ...out[e.domain], [e.key]: e.data ?? 'failed' };
    }
    // A value still pending when the time ran out, or a date, said as text.
    for (const info of Object.values(out))
      for (const [k, v] of Object.entries(info))
        if (v && typeof v === 'object' && 'type' in v)
          info[k] = (v as { type: string; value?: unknown }).type === 'pending' ? 'pending' : ((v as { value?: unknown }).value ?? v);
    return out;
  }

  entries(): Promise<Json[]> {
    return this.command<Json[]>({ type: 'config_entries/get' });
  }

  async disableEntry(entryId: string, disable: boolean): Promise<{ require_restart: boolean }> {
    return this.command<{ require_restart: boolean }>(
      { type: 'config_entries/disable', entry_id: entryId, disabled_by: disable ? 'user' : null },
      `${disable ? 'disabling' : 'enabling'} the integration entry ${entryId}`,
    );
  }

  async reloadEntry(entryId: string): Promise<{ require_restart: boolean }> {
    const r = await this.channel.rest('POST', `/api/config/config_entries/entry/${encodeURIComponent(entryId)}/reload`);
    if (r.status === 404) throw new AppError('NOT_FOUND', 404, `Home Assistant has no integration entry ${entryId}`, { id: entryId });
    if (r.status === 401 || r.status === 403)
      throw new AppError('HUB_ERROR', 403, "Home Assistant refused to reload it: the bridge's token is not an administrator's", { status: r.status });
    if (r.status >= 400)
      throw new AppError('HUB_ERROR', 502, `Home Assistant could not reload the entry (${r.status}): ${String(r.text ?? '').slice(0, 200)}`, {
        status: r.status,
      });
    return (r.json as { require_restart?: boolean } | undefined)?.require_restart ? { require_restart: true } : { require_restart: false };
  }

  /** A service call, answered once Home Assistant ran it (update.install, homeassistant.restart). */
  async callService(domain: string, service: string, data: Json): Promise<void> {
    await this.command({ type: 'call_service', domain, service, service_data: data }, `${domain}.${service}`);
  }

  /** An update's full release notes (update/release_notes: Markdown, or null when it has none). */
  releaseNotes(entityId: string): Promise<string | null> {
    return this.command<string | null>({ type: 'update/release_notes', entity_id: entityId }, `the release notes of ${entityId}`);
  }

  /** The backup integration's agents (backup/agents/info): where a backup can be stored. */
  async backupAgents(): Promise<{ agent_id: string; name: string }[]> {
    return (await this.command<{ agents: { agent_id: string; name: string }[] }>({ type: 'backup/agents/info' }, 'backup/agents/info')).agents;
  }

  /** Starts a backup with Home Assistant's backup integration (backup/generate); answers its id. */
  async backupGenerate(req: { agent_ids: string[]; name: string; include_database: boolean }): Promise<string> {
    return (await this.command<{ backup_job_id: string }>({ type: 'backup/generate', include_homeassistant: true, ...req }, 'making a backup')).backup_job_id;
  }

  /** The backup manager's state and its last action (backup/info). */
  backupInfo(): Promise<{ state: string; last_action_event: Json | null }> {
    return this.command({ type: 'backup/info' }, 'backup/info');
  }

  async backupDetails(backupId: string): Promise<Json | null> {
    return (await this.command<{ backup: Json | null }>({ type: 'backup/details', backup_id: backupId }, 'backup/details')).backup;
  }

  async blueprints(domain: 'automation' | 'script'): Promise<Record<string, { metadata?: Json; error?: string }>> {
    return this.command({ type: 'blueprint/list', domain });
  }
}
