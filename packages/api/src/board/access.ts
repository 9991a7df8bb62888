import { boardEntries, type Db, users } from "@enmusubi/db";
import { BOARD_ENTRY_MINUTES, MSG } from "@enmusubi/shared";
import { and, eq, gt, sql } from "drizzle-orm";
import { AppError } from "../errors";
import { type Charge, payForAction } from "../points/charge";
import { lockPrepaidCredit } from "../points/prepaid";
import { cachedPointCosts } from "../reference/service";
import { BOARD_VIEW_ACTION } from "./model";

// The entry window (spec §4 board view gating).

async function openEntry(db: Db, userId: string): Promise<Date | null> {
  const [entry] = await db
    .select({ openUntil: boardEntries.openUntil })
    .from(boardEntries)
    .where(and(eq(boardEntries.userId, userId), gt(boardEntries.openUntil, sql`now()`)));
  return entry?.openUntil ?? null;
}

/** Whether the member may read the board now: free, or inside a paid entry window. */
export async function boardAccess(
  db: Db,
  userId: string,
): Promise<{ open: boolean; openUntil: Date | null; cost: number }> {
  const [cost, openUntil] = [await viewCost(db), await openEntry(db, userId)];
  return { open: cost === 0 || openUntil !== null, openUntil, cost };
}

/**
 * What a board view costs, from this process's copy of the point costs (reference/cache.ts,
 * decision 0012): it only decides whether the board is free or needs a window. A charge reads the
 * cost again inside its own transaction (points/charge.ts), never this copy.
 */
async function viewCost(db: Db): Promise<number> {
  const cost = (await cachedPointCosts(db)).find((c) => c.actionName === BOARD_VIEW_ACTION);
  if (!cost) throw new AppError("BAD_REQUEST", MSG.unknownAction);
  return cost.pointCost;
}

/** Claims the window when none is open (a conditional upsert: concurrent entries claim it once). */
async function claimWindow(tx: Db, userId: string): Promise<Date | null> {
  const [claimed] = await tx
    .insert(boardEntries)
    .values({ userId, openUntil: sql`now() + make_interval(mins => ${BOARD_ENTRY_MINUTES})` })
    .onConflictDoUpdate({
      target: boardEntries.userId,
      set: { openUntil: sql`excluded.open_until`, enteredAt: sql`now()` },
      setWhere: sql`${boardEntries.openUntil} <= now()`,
    })
    .returning({ openUntil: boardEntries.openUntil });
  return claimed?.openUntil ?? null;
}

/**
 * A paid entry (board.enter, inside the paid-procedure transaction): opens the board for
 * BOARD_ENTRY_MINUTES and charges message_board_view once (a prepaid deduct-points credit first).
 * Entering again while the window is open charges nothing and does not extend it: the window
 * ends BOARD_ENTRY_MINUTES after the paid entry, so a member always knows what a payment bought.
 */
export async function enterBoard(
  tx: Db,
  charge: Charge,
  userId: string,
): Promise<{ openUntil: Date; charged: number; remainingPoints: number }> {
  const claimed = await claimWindow(tx, userId);
  if (claimed) {
    const result = await charge({ quantity: 1 });
    return {
      openUntil: claimed,
      charged: result.available - result.remainingPoints,
      remainingPoints: result.remainingPoints,
    };
  }
  const result = await charge({ quantity: 0 });
  const openUntil = await openEntry(tx, userId);
  if (!openUntil) throw new Error("board entry window vanished inside its transaction");
  return { openUntil, charged: 0, remainingPoints: result.remainingPoints };
}

/**
 * Refuses to show the board (402) unless it is free or an entry window is open. The legacy
 * client's "deduct-points, then list" also works: a prepaid message_board_view credit opens the
 * window here. That is a charge of message_board_view, so it goes through the single charging door
 * (`payForAction`, points/charge.ts) like board.enter's: the charge consumes the locked credit and
 * takes no further points. board.list is a query that may write, for that legacy contract only
 * (docs/decisions/0020); it never takes points from the balance.
 */
export async function assertBoardOpen(db: Db, userId: string): Promise<void> {
  const cost = await viewCost(db);
  if (cost === 0 || (await openEntry(db, userId)) !== null) return;
  await payForAction(db, { userId, action: BOARD_VIEW_ACTION }, async (tx, charge) => {
    // Opened meanwhile by a concurrent call: nothing to pay.
    if (!(await claimWindow(tx, userId))) return charge({ quantity: 0 });
    if (!(await lockPrepaidCredit(tx, userId, BOARD_VIEW_ACTION))) {
      const [me] = await tx.select({ points: users.points }).from(users).where(eq(users.id, userId));
      // Thrown inside the transaction: the claimed window is rolled back with it.
      throw new AppError("PAYMENT_REQUIRED", MSG.boardEntryRequired, {
        details: { success: false, required: cost, available: me?.points ?? 0 },
      });
    }
    // The credit is locked by this transaction, so the charge consumes it instead of the balance.
    return charge({ quantity: 1 });
  });
}
