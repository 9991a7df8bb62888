import { EventEmitter, on } from "node:events";

/**
 * "Something changed in these members' mailboxes", published after the transaction that changed
 * them commits; the unread-count subscription listens to it. In-process: one server instance sees
 * its own sends. Several instances behind a load balancer swap in a shared implementation of this
 * interface (PostgreSQL LISTEN/NOTIFY) — the services and procedures only see the interface.
 */
export interface MailboxEvents {
  publish(userIds: Iterable<string>): void;
  /** Yields each time `userId`'s mailbox changes, until `signal` aborts. */
  changes(userId: string, signal: AbortSignal | undefined): AsyncIterable<unknown>;
}

export function createMemoryMailboxEvents(): MailboxEvents {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    publish(userIds) {
      for (const id of new Set(userIds)) emitter.emit(id);
    },
    changes(userId, signal) {
      return on(emitter, userId, signal ? { signal } : {});
    },
  };
}
