// Services that look after Home Assistant itself rather than act in the home: a restart or stop of
// the core, a reload of its YAML, an update installed, a backup made or restored, an app (add-on)
// or the host started or stopped. admin_system does these through its own checkpoint
// (Policy.authorizeAdminChange); reached as an action (call_service, a script's step, a plugin's
// call), they are judged by the same admin rules, by their subject (core.restart, app.<slug>, ...),
// so a `control` grant cannot do by a service call what it may not do through admin_system.
// Supervisor services on apps, backups and the host are refused as actions outright: admin_system
// makes a backup before an update and keeps the bridge's own app running, which a bare call skips.

export interface AdminService {
  /** In words: "restarting Home Assistant (homeassistant.restart)". */
  what: string;
  /** What the allow and deny lists judge (Policy.AdminChange.subjects). */
  subject: string;
  /** Refused as an action: admin_system's operation that does it, or why none does. */
  only?: string;
}

const CORE: Record<string, [string, string]> = {
  restart: ['core.restart', 'restarting Home Assistant'],
  stop: ['core.stop', 'stopping Home Assistant'],
  reload_all: ['core.reload', "reloading Home Assistant's YAML configuration"],
  reload_core_config: ['core.reload', "reloading Home Assistant's core configuration"],
};

/** The admin change a service call is, or undefined for an action in the home. `entityId` is the entity it targets, if any. */
export function adminServiceOf(domain: string, service: string, data: Record<string, unknown>, entityId?: string): AdminService | undefined {
  const d = domain.toLowerCase();
  const s = service.toLowerCase();
  const name = `${d}.${s}`;
  if (d === 'homeassistant' && CORE[s]) {
    const [subject, what] = CORE[s]!;
    return { subject, what: `${what} (${name})` };
  }
  // Reloads the entries of its target or entry_id, switching their entities off and on: admin_health
  // reload judges every entity of the entry; a bare call would judge only the one named, or none.
  if (d === 'homeassistant' && s === 'reload_config_entry')
    return { subject: 'integration.*', what: `reloading an integration entry (${name})`, only: 'admin_health operation reload' };
  if (d === 'update' && (s === 'install' || s === 'skip' || s === 'clear_skipped'))
    return {
      subject: entityId ?? 'update.*',
      what: `${name} on ${entityId ?? 'an update'}`,
      ...(s === 'install' ? { only: 'admin_system operation install (it makes a backup first)' } : {}),
    };
  if (d === 'backup' && s.startsWith('create')) return { subject: 'backup.*', what: `making a backup (${name})`, only: 'admin_system operation backup' };
  if (d === 'hassio') {
    const app = typeof data.addon === 'string' ? data.addon : typeof data.app === 'string' ? data.app : '*';
    if (/^(addon|app)_/.test(s))
      return { subject: `app.${app}`, what: `${name} on the app ${app}`, only: 'admin_system operations start_app, stop_app, restart_app' };
    if (/^(backup|restore)_/.test(s)) return { subject: 'backup.*', what: name, only: 'admin_system operation backup (restoring is done in Home Assistant)' };
    if (s.startsWith('host_')) return { subject: 'core.host', what: name, only: 'no operation: a person does it in Home Assistant' };
  }
  return undefined;
}
