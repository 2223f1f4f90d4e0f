// What a domain module provides: how a declared entity becomes its first state (with the
// attributes the hub would show for it) and which services the domain registers.
import type { Hub } from './hub.js';

export interface EntitySeed {
  entityId: string;
  objectId: string;
  name: string;
  /** Declared state, if any ('' counts as not declared). */
  state: string | undefined;
  /** Declared attributes (copied, free to modify). */
  attributes: Record<string, unknown>;
  config: Record<string, unknown>;
}

export interface EntityInit {
  state: string;
  attributes: Record<string, unknown>;
}

export interface DomainModule {
  domain: string;
  init?(seed: EntitySeed, hub: Hub): EntityInit;
  setup?(hub: Hub): void;
}

/** Numbers written as strings in a home file ('0', '50') become numbers, as the hub keeps them. */
export function numeric(attrs: Record<string, unknown>, keys: string[]): void {
  for (const k of keys) {
    const x = attrs[k];
    if (typeof x === 'string' && x.trim() !== '' && Number.isFinite(Number(x))) attrs[k] = Number(x);
  }
}

/** The name the hub would show for an entity declared without one. */
export function nameFromObjectId(objectId: string): string {
  const words = objectId.replace(/_/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Puts friendly_name and supported_features last, where the hub writes them. */
export function finish(attrs: Record<string, unknown>, name: string, features?: number): Record<string, unknown> {
  const out = { ...attrs };
  delete out.friendly_name;
  delete out.supported_features;
  out.friendly_name = attrs.friendly_name ?? name;
  if (features !== undefined) out.supported_features = features;
  return out;
}
