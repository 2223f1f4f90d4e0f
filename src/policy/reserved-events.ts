// Event types a caller may not fire: Home Assistant's own. Firing one of them through the bus would
// make integrations and automations believe the hub itself did something it did not (a state
// changed, a service was called, the hub is stopping, a registry changed), which they then act on
// without any check of ours. Read from Home Assistant 2026.11's homeassistant/const.py (EVENT_*)
// and the core integrations' own events; one list, each with why.

interface Reserved {
  /** An exact event type, or a prefix when it ends in `*`. */
  type: string;
  why: string;
}

export const RESERVED_EVENTS: readonly Reserved[] = [
  { type: 'state_changed', why: 'Home Assistant fires it when a state changes; a fake one feeds every listener a state that is not' },
  { type: 'state_reported', why: 'Home Assistant fires it when an integration reports a state' },
  { type: 'call_service', why: 'Home Assistant fires it for each service call it runs' },
  { type: 'service_registered', why: "Home Assistant's own record of its services" },
  { type: 'service_removed', why: "Home Assistant's own record of its services" },
  { type: 'homeassistant_*', why: "Home Assistant's start and stop (homeassistant_start, _started, _stop, _final_write, _close)" },
  { type: 'core_config_updated', why: "Home Assistant's own configuration changes" },
  { type: 'component_loaded', why: 'Home Assistant fires it when it loads an integration' },
  { type: 'automation_triggered', why: 'the automation engine fires it when an automation runs' },
  { type: 'automation_reloaded', why: 'the automation engine fires it when it reloads' },
  { type: 'script_started', why: 'the script engine fires it when a script runs' },
  { type: '*_reloaded', why: 'an integration fires it when it has reloaded its config (the bridge also re-reads configs on it)' },
  { type: '*_registry_updated', why: 'a registry (area, device, entity, floor, label, category, issue) records its own changes' },
  { type: 'user_added', why: "Home Assistant's user store" },
  { type: 'user_updated', why: "Home Assistant's user store" },
  { type: 'user_removed', why: "Home Assistant's user store" },
  { type: 'logbook_entry', why: 'the logbook records it as written by Home Assistant' },
  { type: 'themes_updated', why: 'the frontend reloads on it' },
  { type: 'panels_updated', why: 'the frontend reloads on it' },
  { type: 'lovelace_updated', why: 'dashboards reload on it' },
  { type: 'persistent_notifications_updated', why: 'the notification store records its own changes' },
  { type: 'recorder_*', why: 'the recorder records its own statistics runs' },
  { type: 'data_entry_flow_progressed', why: 'config flows record their own progress' },
  { type: 'config_entry_*', why: 'config entries record their own changes' },
  { type: 'time_changed', why: 'the clock of older releases' },
  { type: 'timer_out_of_sync', why: 'the hub records its own clock' },
  { type: 'timer.*', why: 'timer helpers fire them when a timer starts, ends or is cancelled' },
  { type: 'system_log_event', why: 'the system log records its own entries' },
  { type: 'mobile_app_*', why: 'the companion app integration reads them as coming from a phone' },
  { type: 'ios.*', why: 'the older iOS app integration reads them as coming from a phone' },
  { type: 'tag_scanned', why: 'the tag integration fires it when a tag is scanned; tag triggers (a tag that opens a door) run on it' },
  // Integrations fire these when a device reports a button or remote press; device triggers run on them.
  { type: 'zha_event', why: 'ZHA fires it when a Zigbee device reports a press; device triggers run on it' },
  { type: 'deconz_event', why: 'deCONZ fires it when a device reports a press; device triggers run on it' },
  { type: 'hue_event', why: 'Hue fires it when a device reports a press; device triggers run on it' },
  { type: 'lutron_caseta_button_event', why: 'Lutron Caséta fires it when a button is pressed; device triggers run on it' },
  { type: 'shelly.*', why: 'Shelly fires them when a device reports a press; device triggers run on them' },
];

/** Why an event type is Home Assistant's own, or undefined when a caller may fire it. */
export function reservedEvent(eventType: string): string | undefined {
  const t = eventType.toLowerCase();
  for (const r of RESERVED_EVENTS) {
    const hit = r.type.startsWith('*') ? t.endsWith(r.type.slice(1)) : r.type.endsWith('*') ? t.startsWith(r.type.slice(0, -1)) : t === r.type;
    if (hit) return r.why;
  }
  return undefined;
}
