// The context every state and event carries: who or what caused it.
import { ulid } from './time.js';

export class Context {
  readonly id: string;
  constructor(
    readonly userId: string | null = null,
    readonly parentId: string | null = null,
    id?: string,
  ) {
    this.id = id ?? ulid();
  }

  toJSON(): { id: string; parent_id: string | null; user_id: string | null } {
    return { id: this.id, parent_id: this.parentId, user_id: this.userId };
  }

  /** Compressed states send a bare id when nothing else is set. */
  compressed(): string | { id: string; parent_id: string | null; user_id: string | null } {
    return this.parentId === null && this.userId === null ? this.id : this.toJSON();
  }
}
