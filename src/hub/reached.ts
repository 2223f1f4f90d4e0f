// Until the hub has been reached once, its entities and services are unknown: reads and writes say so.
import { hubUnavailable } from '../errors.js';
import type { HubReader } from './reader.js';

export function requireHubReached(hub: Pick<HubReader, 'services' | 'status'>): void {
  if (Object.keys(hub.services).length === 0) {
    const since = hub.status().since;
    throw hubUnavailable(
      `The hub has not been reached yet${since ? ` (trying since ${since})` : ''}, so its entities and services are unknown; try again once it is connected`,
    );
  }
}
