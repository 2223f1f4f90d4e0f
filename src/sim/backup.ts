// Home Assistant's `backup` integration (2025.1 on) on an install without a Supervisor, as 2026.11
// answers it (homeassistant/components/backup/websocket.py, manager.py): one local agent
// (`backup.local`); backup/generate answers the new backup's id at once and makes it in the
// background (the manager's state `create_backup`, then `idle` with the last action event
// `completed`); backup/info lists the backups and that state; backup/details one backup. Apps and
// folders are the Supervisor's: the core backup refuses them, and a backup always holds Home
// Assistant.
import type { Command, CommandConnection } from './commands.js';
import type { Hub } from './hub.js';
import { HA_ERROR } from './names.js';
import { all, any, coerceInt, dict, isType, listOf, literal, range, type KeySpec } from './schema.js';
import { hexId } from './time.js';

interface SimCoreBackup {
  addons: never[];
  backup_id: string;
  date: string;
  database_included: boolean;
  extra_metadata: Record<string, unknown>;
  folders: never[];
  homeassistant_included: boolean;
  homeassistant_version: string;
  name: string;
  agents: Record<string, { protected: boolean; size: number }>;
  failed_addons: never[];
  failed_agent_ids: string[];
  failed_folders: never[];
  with_automatic_settings: boolean;
}

interface BackupState {
  state: 'idle' | 'create_backup';
  lastEvent: Record<string, unknown> | null;
  backups: Map<string, SimCoreBackup>;
}

const states = new WeakMap<Hub, BackupState>();
const stateOf = (hub: Hub): BackupState => {
  let s = states.get(hub);
  if (!s) {
    s = { state: 'idle', lastEvent: null, backups: new Map() };
    states.set(hub, s);
  }
  return s;
};

const LOCAL_AGENT = 'backup.local';
const strings = all(isType('list'), listOf(isType('str')));
const msg = (type: string, fields: Record<string, KeySpec>) =>
  dict({ id: { v: all(coerceInt, range({ min: 0 })), required: true }, type: { v: literal(type), required: true }, ...fields });

function command(
  type: string,
  fields: Record<string, KeySpec>,
  handle: (conn: CommandConnection, m: Record<string, unknown> & { id: number }) => void,
): [string, Command] {
  return [type, { schema: msg(type, fields), admin: true, handle: (conn, m) => handle(conn, m as Record<string, unknown> & { id: number }) }];
}

export function backupCommands(): Map<string, Command> {
  return new Map([
    command('backup/agents/info', {}, (conn, m) => conn.sendResult(m.id, { agents: [{ agent_id: LOCAL_AGENT, name: 'local' }] })),
    command(
      'backup/generate',
      {
        agent_ids: { v: strings, required: true },
        include_addons: { v: strings },
        include_all_addons: { v: isType('bool') },
        include_database: { v: isType('bool') },
        include_folders: { v: strings },
        include_homeassistant: { v: isType('bool') },
        name: { v: any(literal(null), isType('str')) },
        password: { v: any(literal(null), isType('str')) },
      },
      (conn, m) => {
        const b = stateOf(conn.hub);
        if (b.state !== 'idle') return conn.sendError(m.id, HA_ERROR.homeAssistantError, `Backup manager busy: ${b.state}`);
        const agents = m.agent_ids as string[];
        if (!agents.length || agents.some((a) => a !== LOCAL_AGENT)) return conn.sendError(m.id, HA_ERROR.homeAssistantError, 'Invalid agents selected');
        if ((m.include_addons as string[] | undefined)?.length || m.include_all_addons === true || (m.include_folders as string[] | undefined)?.length)
          return conn.sendError(m.id, HA_ERROR.homeAssistantError, 'Addons and folders are not supported by core backup');
        if (m.include_homeassistant === false) return conn.sendError(m.id, HA_ERROR.homeAssistantError, 'Home Assistant must be included in backup');
        const backupId = hexId().slice(0, 8);
        const now = new Date();
        const backup: SimCoreBackup = {
          addons: [],
          backup_id: backupId,
          date: now.toISOString(),
          database_included: m.include_database !== false,
          extra_metadata: { instance_id: 'sim', with_automatic_settings: false },
          folders: [],
          homeassistant_included: true,
          homeassistant_version: conn.hub.version,
          name: (m.name as string | null | undefined) ?? `Core ${conn.hub.version}`,
          agents: { [LOCAL_AGENT]: { protected: false, size: 0 } },
          failed_addons: [],
          failed_agent_ids: [],
          failed_folders: [],
          with_automatic_settings: false,
        };
        b.state = 'create_backup';
        b.lastEvent = { manager_state: 'create_backup', reason: null, stage: null, state: 'in_progress' };
        conn.sendResult(m.id, { backup_job_id: backupId });
        setTimeout(() => {
          backup.agents[LOCAL_AGENT]!.size = backup.database_included ? 2_400_000 : 400_000;
          b.backups.set(backupId, backup);
          b.state = 'idle';
          b.lastEvent = { manager_state: 'create_backup', reason: null, stage: null, state: 'completed' };
        }, conn.hub.timing.backupMs).unref();
      },
    ),
    command('backup/info', {}, (conn, m) => {
      const b = stateOf(conn.hub);
      conn.sendResult(m.id, {
        agent_errors: {},
        agent_error_translations: {},
        backups: [...b.backups.values()],
        last_attempted_automatic_backup: null,
        last_completed_automatic_backup: null,
        last_action_event: b.lastEvent,
        next_automatic_backup: null,
        next_automatic_backup_additional: false,
        state: b.state,
      });
    }),
    command('backup/details', { backup_id: { v: isType('str'), required: true } }, (conn, m) => {
      conn.sendResult(m.id, { agent_errors: {}, agent_error_translations: {}, backup: stateOf(conn.hub).backups.get(String(m.backup_id)) ?? null });
    }),
  ]);
}

/** The backups the simulated backup integration has made. */
export function coreBackups(hub: Hub): SimCoreBackup[] {
  return [...stateOf(hub).backups.values()];
}
