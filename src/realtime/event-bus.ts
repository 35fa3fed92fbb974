/**
 * The internal bus membership changes are published on, after their transaction commits.
 * The live-feeds layer subscribes here; with Redis it relays between instances.
 */
import type { Role } from '../domain/roles.js';
import type { MembershipState } from '../domain/membership.js';

export interface MemberRowEvent {
  /** `<resourceId>:<userId>` (spec 6). */
  id: string;
  resourceId: string;
  userId: string;
  role: Role;
  state: MembershipState;
}

export interface MembershipEvent {
  op: 'insert' | 'update' | 'delete';
  deploymentId: string;
  row: MemberRowEvent;
}

export type Listener = (event: MembershipEvent) => void;

export class EventBus {
  private readonly listeners = new Set<Listener>();

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(events: readonly MembershipEvent[]): void {
    for (const event of events) {
      for (const listener of this.listeners) {
        try {
          listener(event);
        } catch (error) {
          console.error('event listener failed', error);
        }
      }
    }
  }
}

export function memberRow(resourceId: string, userId: string, role: Role, state: MembershipState): MemberRowEvent {
  return { id: `${resourceId}:${userId}`, resourceId, userId, role, state };
}
