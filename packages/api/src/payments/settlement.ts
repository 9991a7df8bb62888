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
  by: { adminId: string } | { via: "smartpit"; reinstated?: boolean },
): Promise<TransactionRow> {
  const adminId = "adminId" in by ? by.adminId : null;
  const reinstated = "via" in by && by.reinstated === true;
  // The member's lock before anything is read for the bonus: of two orders of one member confirmed
  // at once, the second waits here and then sees the first paid (one first-purchase bonus).
  await lockMember(tx, row.userId);
  const [updated] = await tx
    .update(purchaseTransactions)
    .set({
      status: "paid",
      confirmedAt: sql`now()`,
      confirmedById: adminId,
      confirmedVia: adminId ? "admin" : "smartpit",
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
        ? "入金確認（SmartPit通知・取消／期限切れ後の入金）"
        : "入金確認（SmartPit通知）",
    // The money arrived: a member who has left since is credited too, so the books add up.
    includeDeleted: true,
  });
  // The bonus, in this same transaction: if booking it fails, the purchase's credit fails with it.
  const bonus = await bonusOfOrder(tx, updated);
  return (await bookBonus(tx, updated, bonus, adminId ?? undefined)) ?? updated;
}

export async function confirmerOf(tx: Db, adminId: string): Promise<Transaction["confirmedBy"]> {
  const [admin] = await tx.select({ userID: users.userId, name: users.name }).from(users).where(eq(users.id, adminId));
  return admin ? { userID: admin.userID, name: admin.name } : null;
}
