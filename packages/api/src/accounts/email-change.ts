import { createHash, randomBytes } from "node:crypto";
import { type Db, emailChanges, users } from "@enmusubi/db";
import { type EmailChangeInput, MSG } from "@enmusubi/shared";
import { and, eq, isNull, ne, sql } from "drizzle-orm";
import { type CurrentPasswordDeps, checkCurrentPassword } from "../auth/current-password";
import { AppError, isUniqueViolation } from "../errors";
import { enqueueMail } from "../mail/outbox";
import { emailChangeConfirmMail, emailChangedMail, emailChangeRequestedMail } from "../mail/templates";
import { enforceRateLimit, RATE_LIMITS } from "../security/rate-limit";

/**
 * Changing the e-mail address (decision 0033): the request (current password required, counted
 * like a login's attempts; at most RATE_LIMITS.emailChangePerMember an hour per member and
 * emailChangePerAddress per new address) mails a link to the new address and tells the current
 * address at once; only following the link, once and within EMAIL_CHANGE_HOURS, changes the address,
 * and then the old address is told again. A password change, a password reissue and 退会 cancel
 * the pending change (decision 0038). An address another live account uses is refused, at the
 * request and again at the confirmation (the unique index decides a race).
 */
export const EMAIL_CHANGE_HOURS = 24;

interface EmailChangeDeps extends CurrentPasswordDeps {
  publicUrl: string;
  onMailQueued(): void;
}

const hashOf = (token: string) => createHash("sha256").update(token).digest("hex");

async function assertFree(tx: Db, userId: string, email: string) {
  const [taken] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(sql`lower(${users.email}) = ${email.toLowerCase()}`, isNull(users.deletedAt), ne(users.id, userId)));
  if (taken) throw new AppError("CONFLICT", MSG.emailInUse);
}

/** The address shown to the current address's owner: enough to recognise it, not to harvest it. */
export function maskedAddress(email: string): string {
  const at = email.lastIndexOf("@");
  const local = email.slice(0, at);
  return `${local.slice(0, Math.min(2, Math.max(1, local.length - 1)))}***${email.slice(at)}`;
}

/**
 * Ends the account's pending e-mail change (a password change, a password reissue, 退会): its link
 * then answers MSG.emailChangeCancelled. Call it in the transaction that makes the change.
 */
export async function cancelEmailChanges(tx: Db, userId: string): Promise<void> {
  await tx
    .update(emailChanges)
    .set({ cancelledAt: sql`now()` })
    .where(and(eq(emailChanges.userId, userId), isNull(emailChanges.usedAt), isNull(emailChanges.cancelledAt)));
}

export async function requestEmailChange(
  deps: EmailChangeDeps & { ip: string },
  userId: string,
  input: EmailChangeInput,
  now = new Date(),
) {
  await enforceRateLimit(deps.limiter, [
    [`email-change:member:${userId}`, RATE_LIMITS.emailChangePerMember],
    [`email-change:address:${input.newEmail}`, RATE_LIMITS.emailChangePerAddress],
  ]);
  await checkCurrentPassword(deps, { userId, ip: deps.ip }, input.currentPassword, MSG.currentPasswordWrong);
  await deps.db.transaction(async (tx) => {
    const [user] = await tx
      .select({ email: users.email })
      .from(users)
      .where(and(eq(users.id, userId), isNull(users.deletedAt)))
      .for("update");
    if (!user) throw new AppError("UNAUTHORIZED", MSG.unauthorized);
    if (user.email.toLowerCase() === input.newEmail) throw new AppError("BAD_REQUEST", MSG.emailChangeSame);
    await assertFree(tx, userId, input.newEmail);
    // One pending change at a time: an earlier link stops working.
    await tx.delete(emailChanges).where(and(eq(emailChanges.userId, userId), isNull(emailChanges.usedAt)));
    const token = randomBytes(32).toString("base64url");
    await tx.insert(emailChanges).values({
      userId,
      newEmail: input.newEmail,
      tokenHash: hashOf(token),
      expiresAt: new Date(now.getTime() + EMAIL_CHANGE_HOURS * 3600_000),
    });
    await enqueueMail(tx, {
      to: input.newEmail,
      ...emailChangeConfirmMail(deps.publicUrl, EMAIL_CHANGE_HOURS),
      secret: token,
    });
    // The current address is told now, not only once the change is done: its owner can still stop it.
    await enqueueMail(tx, {
      to: user.email,
      ...emailChangeRequestedMail(deps.publicUrl, maskedAddress(input.newEmail), EMAIL_CHANGE_HOURS),
    });
  });
  deps.onMailQueued();
  return { message: MSG.emailChangeSent };
}

/** Follows the confirmation link (no login needed): the change applies once; the old address is told. */
export async function confirmEmailChange(deps: EmailChangeDeps, token: string, now = new Date()) {
  try {
    await deps.db.transaction(async (tx) => {
      const [change] = await tx
        .select()
        .from(emailChanges)
        .where(eq(emailChanges.tokenHash, hashOf(token)))
        .for("update");
      if (!change) throw new AppError("BAD_REQUEST", MSG.emailChangeInvalid);
      if (change.usedAt) throw new AppError("BAD_REQUEST", MSG.emailChangeUsed);
      if (change.cancelledAt) throw new AppError("BAD_REQUEST", MSG.emailChangeCancelled);
      if (change.expiresAt <= now) throw new AppError("BAD_REQUEST", MSG.emailChangeInvalid);
      const [user] = await tx
        .select({ email: users.email })
        .from(users)
        .where(and(eq(users.id, change.userId), isNull(users.deletedAt)))
        .for("update");
      if (!user) throw new AppError("BAD_REQUEST", MSG.emailChangeInvalid);
      await assertFree(tx, change.userId, change.newEmail);
      await tx.update(users).set({ email: change.newEmail }).where(eq(users.id, change.userId));
      await tx.update(emailChanges).set({ usedAt: now }).where(eq(emailChanges.id, change.id));
      await enqueueMail(tx, { to: user.email, ...emailChangedMail(deps.publicUrl) });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("CONFLICT", MSG.emailInUse, { cause: error });
    throw error;
  }
  deps.onMailQueued();
  return { message: MSG.emailChangeDone };
}
