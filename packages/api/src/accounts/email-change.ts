import { createHash, randomBytes } from "node:crypto";
import { type Db, emailChanges, users } from "@enmusubi/db";
import { type EmailChangeInput, MSG } from "@enmusubi/shared";
import { and, eq, isNull, ne, sql } from "drizzle-orm";
import type { PasswordHasher } from "../auth/password";
import { AppError, isUniqueViolation } from "../errors";
import { enqueueMail, SECRET_PLACEHOLDER } from "../mail/outbox";

/**
 * Changing the e-mail address (issue 25): the request (current password required) mails a link
 * to the new address; only following it, once and within EMAIL_CHANGE_HOURS, changes the address,
 * and then the old address is told. An address another live account uses is refused, at the
 * request and again at the confirmation (the unique index decides a race).
 */
export const EMAIL_CHANGE_HOURS = 24;

interface EmailChangeDeps {
  db: Db;
  passwords: PasswordHasher;
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

export async function requestEmailChange(
  deps: EmailChangeDeps,
  userId: string,
  input: EmailChangeInput,
  now = new Date(),
) {
  await deps.db.transaction(async (tx) => {
    const [user] = await tx
      .select({ email: users.email, passwordHash: users.passwordHash })
      .from(users)
      .where(and(eq(users.id, userId), isNull(users.deletedAt)))
      .for("update");
    if (!user) throw new AppError("UNAUTHORIZED", MSG.unauthorized);
    if (!(await deps.passwords.verify(user.passwordHash, input.currentPassword)))
      throw new AppError("BAD_REQUEST", MSG.currentPasswordWrong);
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
      subject: "【縁結び】メールアドレス変更の確認",
      text: [
        "縁結びのメールアドレス変更のお申し込みを受け付けました。",
        `${EMAIL_CHANGE_HOURS}時間以内に次のリンクを開くと、このアドレスへの変更が完了します。`,
        "",
        `${deps.publicUrl}/email-change/confirm?token=${SECRET_PLACEHOLDER}`,
        "",
        "お心当たりのない場合は、このメールを破棄してください（変更は行われません）。",
      ].join("\n"),
      secret: token,
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
      await enqueueMail(tx, {
        to: user.email,
        subject: "【縁結び】メールアドレスが変更されました",
        text: [
          "縁結びに登録されたメールアドレスが変更されました。",
          "今後のお知らせは新しいアドレスにお送りします。このアドレスには今後お送りしません。",
          "",
          "お心当たりのない場合は、お問い合わせからご連絡ください：",
          `${deps.publicUrl}/user/inquiry`,
        ].join("\n"),
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("CONFLICT", MSG.emailInUse, { cause: error });
    throw error;
  }
  deps.onMailQueued();
  return { message: MSG.emailChangeDone };
}
