import { type Db, messageNotices } from "@enmusubi/db";
import { MSG } from "@enmusubi/shared";
import { eq, sql } from "drizzle-orm";
import { AppError } from "../errors";
import type { LinkSigner } from "./links";

/** The member's notice-mail setting: on unless they turned it off (no row yet means on). */
export async function noticeSetting(db: Db, userId: string): Promise<{ enabled: boolean }> {
  const [row] = await db
    .select({ enabled: messageNotices.enabled })
    .from(messageNotices)
    .where(eq(messageNotices.userId, userId));
  return { enabled: row?.enabled ?? true };
}

/** Turns the notices on or off (the settings screen); one upsert, so it needs no row before. */
export async function setNoticeSetting(db: Db, userId: string, enabled: boolean) {
  await db
    .insert(messageNotices)
    .values({ userId, enabled })
    .onConflictDoUpdate({ target: messageNotices.userId, set: { enabled } });
  return { enabled, message: enabled ? MSG.noticeMailOn : MSG.noticeMailOff };
}

/**
 * The one-click stop link (no login): a valid link of the current version turns the notices off
 * and bumps the version, so the link (and every older one) works once; a used link says so and
 * changes nothing; a forged or expired one is a BAD_REQUEST with a Japanese message.
 */
export async function stopByLink(deps: { db: Db; links: LinkSigner }, token: string) {
  const claims = await deps.links.verifyStop(token);
  if (!claims) throw new AppError("BAD_REQUEST", MSG.noticeStopInvalid);
  const [stopped] = await deps.db
    .update(messageNotices)
    .set({ enabled: false, stopVersion: sql`${messageNotices.stopVersion} + 1` })
    .where(sql`${messageNotices.userId} = ${claims.userId} and ${messageNotices.stopVersion} = ${claims.version}`)
    .returning({ userId: messageNotices.userId });
  if (stopped) return { stopped: true, alreadyUsed: false, message: MSG.noticeStopDone };
  const [row] = await deps.db
    .select({ version: messageNotices.stopVersion })
    .from(messageNotices)
    .where(eq(messageNotices.userId, claims.userId));
  // A link is only ever issued for an existing row; none means the member (and the row) is gone.
  if (!row || row.version < claims.version) throw new AppError("BAD_REQUEST", MSG.noticeStopInvalid);
  return { stopped: false, alreadyUsed: true, message: MSG.noticeStopUsed };
}
