// Shapes the hub (Home Assistant) sends, as far as the bridge reads them.

export interface HubContext {
  id: string;
  parent_id: string | null;
  user_id: string | null;
}

export interface HubState {
  entity_id: string;
  state: string;
  attributes: Record<string, unknown>;
  last_changed: string;
  last_updated: string;
  context?: HubContext;
}

export interface HubEvent {
  event_type: string;
  data: Record<string, unknown>;
  origin: string;
  time_fired: string;
  context: HubContext;
}

export interface StateChangedData {
  entity_id: string;
  old_state: HubState | null;
  new_state: HubState | null;
}

export interface ServiceField {
  name?: string;
  description?: string;
  required?: boolean;
  example?: unknown;
  default?: unknown;
  selector?: Record<string, unknown> | null;
  /** Sections (newer hubs) hold their fields one level down. */
  fields?: Record<string, ServiceField>;
  collapsed?: boolean;
}

export interface ServiceDescription {
  name?: string;
  description?: string;
  fields: Record<string, ServiceField>;
  target?: unknown;
  response?: { optional: boolean };
}

export type HubServices = Record<string, Record<string, ServiceDescription>>;

export interface HubConfig {
  version: string;
  location_name?: string;
  time_zone?: string;
  components?: string[];
  unit_system?: Record<string, string>;
  /** NOT_RUNNING, STARTING, RUNNING, STOPPING, ... (absent from very old hubs and some simulators). */
  state?: string;
  [k: string]: unknown;
}
