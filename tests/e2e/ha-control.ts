// What an end-to-end test needs from the real Home Assistant that tests/e2e/run.sh started:
// where it is, its token, and stopping and starting it again (same port, same config dir, so
// the token stays valid). The state file is $HA_E2E_STATE, written by `ha.mjs start`.
import * as ha from './ha.mjs';
import type { HaState } from './ha.mjs';

export type { HaState };
export const { CURRENT_VERSION, OLDEST_VERSION, listeningSockets } = ha;

function stateFile(): string {
  const file = ha.defaultStateFile();
  if (!file) throw new Error('HA_E2E_STATE is not set: run the end-to-end suite with `npm run test:e2e`');
  return file;
}

/** The current state: version, url, wsUrl, token, pid (null while stopped), dir, log. */
export function haState(): HaState {
  return ha.readState(stateFile());
}

/** The release of the hub this run started ($HA_E2E_VERSION when the state file does not exist yet). */
export const HA_VERSION: string = ha.defaultStateFile() ? haState().version : ha.selectedVersion();
/** The demo entities the suite relies on, as this release names them. */
export const DEMO_ENTITIES: readonly string[] = ha.demoEntities(HA_VERSION);

/** SIGTERM, then SIGKILL after a bound; the config dir and the token survive. */
export function stopHa(): Promise<HaState> {
  return ha.stopHa({ stateFile: stateFile() });
}

/** Starts it again on the same port with the same config dir; resolves when the demo entities exist. */
export function startHa(): Promise<HaState> {
  return ha.startHa({ stateFile: stateFile() });
}

export function restartHa(): Promise<HaState> {
  return ha.restartHa({ stateFile: stateFile() });
}

/** The last lines of Home Assistant's log, for failure messages. */
export function haLogTail(lines = 60): string {
  return ha.logTail(lines, stateFile());
}

/** This release's answer where the releases differ: each expectation says whose answer is whose. */
export function per<T>(answers: { '2024.3.3': T; '2026.11.0': T }): T {
  const mine = (answers as Record<string, T>)[HA_VERSION];
  if (mine === undefined) throw new Error(`no expectation given for Home Assistant ${HA_VERSION}`);
  return mine;
}

/** Whether this run's hub is the oldest release the bridge supports (2024.3.3). */
export const OLDEST = HA_VERSION === ha.OLDEST_VERSION;

/** The demo vacuum, as this release names it (2026.11 gave it a device: vacuum.demo_vacuum_0_ground_floor). */
export const DEMO_VACUUM = DEMO_ENTITIES.find((id) => id.startsWith('vacuum.'))!;
