import { type Db, type scheduledMessages, type scheduledSourceEnum, users } from "@enmusubi/db";
import type { ScheduledSource, ScheduledStatus, ScheduledType } from "@enmusubi/shared";
import { inArray } from "drizzle-orm";

/*
 * Scheduled messages (spec §3, §4, §5): the browser queue `scheduled_messages_v1` is a server
 * table, dispatched by a job loop on every instance (ARCHITECTURE "Scheduled messages run on the
 * server"; docs/decisions/0004, 0021). entries.ts: a member's or an administrator's entries
 * (create, list, cancel); send.ts: sending one entry as its owner, through the services and the
 * charging door a request uses; dispatch.ts: the dispatcher. This file: an entry as answered.
 */

// The table's enum and the shared list must be the same values.
const sameSources: [ScheduledSource] extends [(typeof scheduledSourceEnum.enumValues)[number]]
  ? [(typeof scheduledSourceEnum.enumValues)[number]] extends [ScheduledSource]
    ? true
    : false
  : false = true;
void sameSources;

export type Entry = typeof scheduledMessages.$inferSelect;

export interface ScheduledView {
  id: string;
  type: ScheduledType;
  recipients: Array<{ id: string; name: string | null }>;
  content: string;
  scheduledAt: Date;
  createdAt: Date;
  source: ScheduledSource;
  status: ScheduledStatus;
  lastError: string | null;
  /** The member an administrator sends as; null otherwise (or when that account is gone). */
  senderUser: { id: string; name: string | null } | null;
}

export async function toViews(db: Db, entries: Entry[]): Promise<ScheduledView[]> {
  const ids = [...new Set(entries.flatMap((e) => [...e.recipients, ...(e.senderUserId ? [e.senderUserId] : [])]))];
  const names = new Map<string, string | null>();
  if (ids.length > 0) {
    const rows = await db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, ids));
    for (const r of rows) names.set(r.id, r.name);
  }
  return entries.map((e) => ({
    id: e.id,
    type: e.type,
    recipients: e.recipients.map((id) => ({ id, name: names.get(id) ?? null })),
    content: e.content,
    scheduledAt: e.scheduledAt,
    createdAt: e.createdAt,
    source: e.source,
    status: e.status,
    lastError: e.lastError,
    senderUser:
      e.senderUserId && names.has(e.senderUserId)
        ? { id: e.senderUserId, name: names.get(e.senderUserId) ?? null }
        : null,
  }));
}
