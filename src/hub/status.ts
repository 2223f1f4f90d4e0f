/** How the service is connected to its hub, as reported by /health and /api/config. */
export interface HubStatus {
  connected: boolean;
  /** The hub's own version (Home Assistant's), once known. */
  version?: string;
  /** Where the hub is; never carries a token. */
  url: string;
  /** home_assistant: HASS_URL; supervisor: inside the add-on; simulator: the built-in simulator. */
  mode: 'home_assistant' | 'supervisor' | 'simulator';
  simulator?: { home: string };
  /** When the connection was last lost (ISO 8601), while disconnected. */
  since?: string;
  /** Events received from the hub since start, across reconnects; resync catch-ups are not counted. */
  events?: { received: number; state_changed: number };
}
