import { type Db, purchaseTransactions, users } from "@enmusubi/db";
import { MSG } from "@enmusubi/shared";
import { and, eq, sql } from "drizzle-orm";
import { AppError } from "../errors";
import { changeBalance } from "../points/ledger";
import { bonusOfOrder, bookBonus, lockMember } from "./bonuses";
import type { Transaction, TransactionRow } from "./transactions";

/** Crediting a paid order, the one way both an administrator's confirmation and SmartPit's notification take. */

/** The largest balance the `points` column holds (PostgreSQL integer). */
export const BALANCE_COLUMN_MAX = 2_147_483_647;

/**
 * Whether the order's points and its bonus (decision 0047) can be credited to its member now, under
 * the member's row lock (taken after the transaction row's, the one order every path here uses):
 * `overflow` when the balance column could not hold the result, `closed` when the account is deleted.
 */
export async function creditable(tx: Db, row: TransactionRow): Promise<"ok" | "closed" | "overflow"> {
  const member = await lockMember(tx, row.userId);
  if (!member) return "closed";
  const bonus = await bonusOfOrder(tx, row);
  if (member.points + row.points + bonus.points > BALANCE_COLUMN_MAX) return "overflow";
  return member.deletedAt ? "closed" : "ok";
}

/**
 * Marks the transaction paid and credits its points as a paid-for lot, and its bonus as free lots
 * (decision 0047), in the caller's transaction, which holds the row's lock: a second or concurrent
 * confirmation waits, then sees `paid` and is refused, so the points are credited once. Every
 * payment method credits through here, so every method gets its bonus. `reinstated`: a cancelled
 * or expired order paid late (the caller decided it can be credited).
 */
export async function settle(
  tx: Db,
  row: TransactionRow,
  by: { adminId: string } | { via: NotifiedVia; reinstated?: boolean },
): Promise<TransactionRow> {
  const adminId = "adminId" in by ? by.adminId : null;
  const via = "via" in by ? by.via : "admin";
  const reinstated = "via" in by && by.reinstated === true;
  const by_ = via === "card" ? "カード決済通知" : "SmartPit通知";
  // The member's lock before anything is read for the bonus: of two orders of one member confirmed
  // at once, the second waits here and then sees the first paid (one first-purchase bonus).
  await lockMember(tx, row.userId);
  const [updated] = await tx
    .update(purchaseTransactions)
    .set({
      status: "paid",
      confirmedAt: sql`now()`,
      confirmedById: adminId,
      confirmedVia: via,
      ...(reinstated ? { reinstatedAt: sql`now()` } : {}),
    })
    .where(and(eq(purchaseTransactions.id, row.id), eq(purchaseTransactions.status, row.status)))
    .returning();
  if (!updated) throw new AppError("CONFLICT", MSG.transactionAlreadyConfirmed);
  await changeBalance(tx, {
    userId: row.userId,
    delta: row.points,
    kind: "purchase",
    paidYen: row.amount,
    reference: row.transactionId,
    actorId: adminId ?? undefined,
    note: adminId
      ? "入金確認（管理者）"
      : reinstated
        ? `入金確認（${by_}・取消／期限切れ後の入金）`
        : `入金確認（${by_}）`,
    // The money arrived: a member who has left since is credited too, so the books add up.
    includeDeleted: true,
  });
  // The bonus, in this same transaction: if booking it fails, the purchase's credit fails with it.
  const bonus = await bonusOfOrder(tx, updated);
  return (await bookBonus(tx, updated, bonus, adminId ?? undefined)) ?? updated;
}

/** The providers whose signed notification credits an order. */
export type NotifiedVia = "smartpit" | "card";

export type NotifiedCredit =
  | { outcome: "credited" | "reinstated"; row: TransactionRow }
  | { outcome: "unsettled"; reason: "account_closed" | "overflow"; row: TransactionRow };

/**
 * What a provider's signed "paid" notification does to an order not yet paid (decision 0018), in
 * the caller's transaction, which holds the order's row lock (the member's is taken here, after it):
 * - pending: credited exactly as an administrator's confirmation would (`settle`), even when its
 *   member has left (the books add up);
 * - cancelled or expired (`failed`): the money is never dropped. Reinstated as paid and credited when
 *   the member's account is live and the balance can hold it; otherwise `unsettled`, listed for the
 *   administrators, the order left as it was;
 * - a pending order whose credit the balance column could not hold ends `failed`, its money listed,
 *   so that it cannot be confirmed (credited) a second time by hand.
 * Every credit goes through `settle`, the one purchase-credit path.
 */
export async function creditNotifiedPayment(tx: Db, row: TransactionRow, via: NotifiedVia): Promise<NotifiedCredit> {
  const state = await creditable(tx, row);
  if (row.status === "pending" && state !== "overflow") {
    return { outcome: "credited", row: await settle(tx, row, { via }) };
  }
  if (state === "ok") return { outcome: "reinstated", row: await settle(tx, row, { via, reinstated: true }) };
  let current = row;
  if (row.status === "pending") {
    const [failed] = await tx
      .update(purchaseTransactions)
      .set({ status: "failed" })
      .where(eq(purchaseTransactions.id, row.id))
      .returning();
    if (failed) current = failed;
  }
  return { outcome: "unsettled", reason: state === "closed" ? "account_closed" : "overflow", row: current };
}

export async function confirmerOf(tx: Db, adminId: string): Promise<Transaction["confirmedBy"]> {
  const [admin] = await tx.select({ userID: users.userId, name: users.name }).from(users).where(eq(users.id, adminId));
  return admin ? { userID: admin.userID, name: admin.name } : null;
}
