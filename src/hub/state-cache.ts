// The bridge's copy of every entity's state, fed by state_changed events and full snapshots.
import type { HubState, StateChangedData } from './types.js';

export class StateCache {
  private readonly states = new Map<string, HubState>();

  get size(): number {
    return this.states.size;
  }
  get(entityId: string): HubState | undefined {
    return this.states.get(entityId);
  }
  has(entityId: string): boolean {
    return this.states.has(entityId);
  }
  all(): IterableIterator<HubState> {
    return this.states.values();
  }
  ids(): IterableIterator<string> {
    return this.states.keys();
  }

  /** Applies one state_changed; a null new_state removes the entity. */
  apply(change: StateChangedData): void {
    if (change.new_state) this.states.set(change.entity_id, change.new_state);
    else this.states.delete(change.entity_id);
  }

  /**
   * Replaces the cache with a snapshot and returns one state_changed per entity that differs,
   * appeared or disappeared, so listeners see what happened while they were not told.
   */
  replaceAll(snapshot: readonly HubState[]): StateChangedData[] {
    const changes: StateChangedData[] = [];
    const seen = new Set<string>();
    for (const next of snapshot) {
      seen.add(next.entity_id);
      const prev = this.states.get(next.entity_id);
      if (!prev || prev.state !== next.state || prev.last_updated !== next.last_updated) {
        changes.push({ entity_id: next.entity_id, old_state: prev ?? null, new_state: next });
      }
      this.states.set(next.entity_id, next);
    }
    for (const [id, prev] of this.states) {
      if (!seen.has(id)) {
        changes.push({ entity_id: id, old_state: prev, new_state: null });
        this.states.delete(id);
      }
    }
    return changes;
  }
}
