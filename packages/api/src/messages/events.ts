import { EventEmitter, on } from "node:events";

/**
 * What changed for a member, as their live stream (unread-and-balance.ts) hears it: their
 * mailbox (a message in or out, one read, an account suspended or deleted), or their balance (a
 * payment credited, an administrator's edit; decision 0031).
 */
export type MemberChange = "mailbox" | "balance";

/**
 * "Something changed for these members", published after the transaction that changed it
 * commits; the member's live stream listens to it. In-process: one server instance sees its own
 * changes. Several instances behind a load balancer swap in a shared implementation of this
 * interface (PostgreSQL LISTEN/NOTIFY, apps/server mailbox-events.ts) — the services and
 * procedures only see the interface.
 */
export interface MailboxEvents {
  /** `change`: "mailbox" unless told. */
  publish(userIds: Iterable<string>, change?: MemberChange): void;
  /** Yields what changed each time something changes for `userId`, until `signal` aborts. */
  changes(userId: string, signal: AbortSignal | undefined): AsyncIterable<MemberChange>;
}

export function createMemoryMailboxEvents(): MailboxEvents {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    publish(userIds, change = "mailbox") {
      for (const id of new Set(userIds)) emitter.emit(id, change);
    },
    changes(userId, signal) {
      // Listening starts at the call, not at the first read: nothing published meanwhile is missed.
      const events = on(emitter, userId, signal ? { signal } : {});
      return (async function* () {
        for await (const [change] of events) yield change === "balance" ? "balance" : ("mailbox" as const);
      })();
    },
  };
}
