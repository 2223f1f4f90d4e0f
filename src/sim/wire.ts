// The shapes of a few of Home Assistant's answers, as the simulator sends them: the registry
// listings (config/*_registry/list) and get_services. The fields a client reads are typed; the
// rest vary with the hub's version and are kept as sent.

export interface WireFloor {
  floor_id: string;
  name: string;
  level: number | null;
  aliases?: string[];
  [key: string]: unknown;
}

export interface WireLabel {
  label_id: string;
  name: string;
  [key: string]: unknown;
}

export interface WireArea {
  area_id: string;
  name: string;
  aliases: string[];
  /** From 2024.4 (legacy hubs leave it out). */
  floor_id?: string | null;
  labels?: string[];
  [key: string]: unknown;
}

export interface WireDevice {
  id: string;
  name: string | null;
  name_by_user: string | null;
  area_id: string | null;
  manufacturer: string | null;
  model: string | null;
  labels?: string[];
  [key: string]: unknown;
}

export interface WireEntity {
  entity_id: string;
  device_id: string | null;
  area_id: string | null;
  name: string | null;
  original_name: string | null;
  disabled_by: string | null;
  hidden_by: string | null;
  entity_category: string | null;
  aliases?: string[];
  labels?: string[];
  [key: string]: unknown;
}

/** A field of a service as get_services lists it; sections hold their fields one level down. */
export interface WireField {
  name?: string;
  description?: string;
  required?: boolean;
  example?: unknown;
  selector?: Record<string, unknown> | null;
  advanced?: boolean;
  filter?: unknown;
  fields?: Record<string, WireField>;
  collapsed?: boolean;
}

export interface WireService {
  name?: string;
  description?: string;
  fields: Record<string, WireField>;
  target?: unknown;
  response?: { optional: boolean };
}

/** get_services: services by domain, then by name. */
export type WireServices = Record<string, Record<string, WireService>>;
