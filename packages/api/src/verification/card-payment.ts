import { type Db, idVerifications, users } from "@enmusubi/db";
import { and, eq } from "drizzle-orm";

/**
 * A completed card payment as the age check (出会い系サイト規制法施行規則: a credit card, which only
 * adults can hold, is an accepted means; decision 0046), when the administrators accept it (決済設定,
 * `card_age_verification`). A member's first completed card payment marks the account verified,
 * recorded as such in the verification history: an `approved` row with `method = card_payment`, the
 * order that did it, no image and no reviewer. Runs in the crediting transaction. A member already
 * verified, or one whose card payment verified them before (an administrator may have withdrawn it
 * since), is left as they are. Answers whether the member was verified now.
 */
export async function verifyByCardPayment(
  tx: Db,
  input: { userId: string; purchaseTransactionId: string },
): Promise<boolean> {
  const [member] = await tx
    .select({ status: users.verificationStatus, deletedAt: users.deletedAt })
    .from(users)
    .where(eq(users.id, input.userId))
    .for("update");
  if (!member || member.deletedAt || member.status === "verified") return false;
  const [before] = await tx
    .select({ id: idVerifications.id })
    .from(idVerifications)
    .where(and(eq(idVerifications.userId, input.userId), eq(idVerifications.method, "card_payment")))
    .limit(1);
  if (before) return false;
  const now = new Date();
  await tx.insert(idVerifications).values({
    userId: input.userId,
    status: "approved",
    method: "card_payment",
    purchaseTransactionId: input.purchaseTransactionId,
    reviewedAt: now,
  });
  await tx.update(users).set({ verificationStatus: "verified", verifiedAt: now }).where(eq(users.id, input.userId));
  return true;
}
