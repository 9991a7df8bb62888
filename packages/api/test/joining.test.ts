import { mailOutbox, pointLots, users } from "@enmusubi/db";
import { FREE_POINT_VALIDITY_DAYS, japanDayOf, MSG, NEW_USER_DEFAULTS, TERMS_VERSION } from "@enmusubi/shared";
import { and, eq, like, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { sendExpiryNotices } from "../src/points/expiry-notice";
import { changeBalance } from "../src/points/ledger";
import { snapshotTables, useTestApi } from "./helpers";

const api = useTestApi();
const db = () => api.database.db;
const consent = { acceptTerms: true, adult: true, termsVersion: TERMS_VERSION } as const;

const DAY = 24 * 60 * 60 * 1000;

function must<T>(value: T | null | undefined): T {
  if (value === null || value === undefined) throw new Error("expected a value");
  return value;
}

describe("sign-up with consent (auth.join)", () => {
  it("records the terms version and when; the welcome mail says what the 100 pt are and when they expire", async () => {
    const before = Date.now();
    const answer = await api.caller().auth.join({ email: "join-ok@example.jp", gender: "female", ...consent });
    expect(answer).toEqual({ success: true, message: MSG.signupDone });
    const [row] = await db().select().from(users).where(eq(users.email, "join-ok@example.jp"));
    expect(row?.termsVersion).toBe(TERMS_VERSION);
    expect(row?.termsAcceptedAt?.getTime()).toBeGreaterThanOrEqual(before - 1000);
    const [mail] = await db().select().from(mailOutbox).where(eq(mailOutbox.to, "join-ok@example.jp"));
    expect(mail?.text).toContain(`${NEW_USER_DEFAULTS.points}pt（無料ポイント）`);
    expect(mail?.text).toContain(`${FREE_POINT_VALIDITY_DAYS}日間`);
  });

  it("refuses a sign-up without either box, or with an older terms version, in Japanese, registering nothing", async () => {
    const before = await snapshotTables(api, "users", "mail_outbox", "point_ledger");
    const email = "join-no@example.jp";
    const cases = [
      [{ email, ...consent, acceptTerms: false }, MSG.termsConsentRequired],
      [{ email, acceptTerms: true, termsVersion: TERMS_VERSION }, MSG.adultDeclarationRequired],
      [{ email, ...consent, adult: false }, MSG.adultDeclarationRequired],
      [{ email, ...consent, termsVersion: "2000-01-01" }, MSG.termsVersionOutdated],
    ] as const;
    for (const [input, message] of cases) {
      // @ts-expect-error deliberately invalid input
      await expect(api.caller().auth.join(input)).rejects.toMatchObject({ code: "BAD_REQUEST", message });
    }
    expect(await snapshotTables(api, "users", "mail_outbox", "point_ledger")).toEqual(before);
  });

  it("the legacy sign-up records no consent: the member is asked once, and accepting records it", async () => {
    await api.caller().auth.signup({ email: "legacy-join@example.jp", gender: "male" });
    const [row] = await db().select().from(users).where(eq(users.email, "legacy-join@example.jp"));
    expect(row?.termsVersion).toBeNull();
    const member = await api.createUser({ termsVersion: undefined });
    const asked = await api.caller(member).account.consent();
    expect(asked).toMatchObject({
      termsVersion: null,
      acceptedAt: null,
      currentVersion: TERMS_VERSION,
      required: true,
    });
    await expect(
      // @ts-expect-error deliberately invalid input
      api.caller(member).account.acceptTerms({ acceptTerms: true, termsVersion: TERMS_VERSION }),
    ).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: MSG.adultDeclarationRequired,
    });
    expect((await api.caller(member).account.consent()).required).toBe(true);
    const accepted = await api.caller(member).account.acceptTerms(consent);
    expect(accepted).toMatchObject({ termsVersion: TERMS_VERSION, required: false });
    expect(accepted.acceptedAt).toBeInstanceOf(Date);
  });

  it("administrators are never asked", async () => {
    const admin = await api.createUser({ role: "admin" });
    await expect(api.caller(admin).account.consent()).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});

describe("the balance by expiry (account.pointBalance)", () => {
  it("splits purchased and free points, names the next expiry and leaves out lapsed points", async () => {
    const member = await api.createUser({ points: 100 });
    await db().transaction((tx) =>
      changeBalance(tx, { userId: member.id, delta: 500, kind: "purchase", paidYen: 1000, reference: "TX-B1" }),
    );
    const balance = await api.caller(member).account.pointBalance();
    expect(balance).toMatchObject({ total: 600, purchased: 500, free: 100 });
    const freeDay = japanDayOf(new Date(Date.now() + FREE_POINT_VALIDITY_DAYS * DAY));
    expect(balance.nextExpiry).toMatchObject({ day: freeDay, free: 100, purchased: 0 });
    expect(balance.schedule).toHaveLength(2);
    expect(balance.schedule[1]).toMatchObject({ purchased: 500, free: 0 });
    // A lot past its expiry, not yet booked by the job, is not shown as spendable.
    await db()
      .update(pointLots)
      .set({ expiresAt: sql`now() - interval '1 minute'` })
      .where(and(eq(pointLots.userId, member.id), eq(pointLots.paid, false)));
    const after = await api.caller(member).account.pointBalance();
    expect(after).toMatchObject({ total: 500, purchased: 500, free: 0 });
    expect(after.nextExpiry).toMatchObject({ purchased: 500 });
  });

  it("answers nothing due for a member with no points", async () => {
    const member = await api.createUser({ points: 0 });
    expect(await api.caller(member).account.pointBalance()).toEqual({
      total: 0,
      purchased: 0,
      free: 0,
      nextExpiry: null,
      schedule: [],
    });
  });
});

describe("the notice 7 days before points expire", () => {
  const deps = () => ({ db: db(), publicUrl: "http://localhost:3000" });
  const mailsTo = async (email: string) => db().select().from(mailOutbox).where(eq(mailOutbox.to, email));

  it("tells each lot once, at 7 days, with a fixed clock; never a lot further off or one already told", async () => {
    const member = await api.createUser({ points: 100, userID: `notice${Date.now() % 100000}` });
    const email = `${member.userID}@example.jp`;
    const [lot] = await db().select().from(pointLots).where(eq(pointLots.userId, member.id));
    const expiresAt = must(lot).expiresAt;
    // 8 days before: not yet.
    const early = await sendExpiryNotices(deps(), new Date(expiresAt.getTime() - 8 * DAY));
    expect(await mailsTo(email)).toHaveLength(0);
    expect(early.lots).toBe(0);
    // 7 days before: the notice, with the day and the amount.
    const due = new Date(expiresAt.getTime() - 7 * DAY + 60_000);
    await sendExpiryNotices(deps(), due);
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toContain(`${japanDayOf(expiresAt)} まで：100pt（無料ポイント）`);
    // Later runs (and a run the next day) do not tell it again.
    await sendExpiryNotices(deps(), due);
    await sendExpiryNotices(deps(), new Date(due.getTime() + DAY));
    expect(await mailsTo(email)).toHaveLength(1);
  });

  it("leaves out withdrawn and suspended members", async () => {
    const gone = await api.createUser({ points: 100 });
    await db().update(users).set({ deletedAt: new Date(), withdrawnAt: new Date() }).where(eq(users.id, gone.id));
    const [lot] = await db().select().from(pointLots).where(eq(pointLots.userId, gone.id));
    await sendExpiryNotices(deps(), new Date(must(lot).expiresAt.getTime() - 6 * DAY));
    expect(await mailsTo(`${gone.userID}@example.jp`)).toHaveLength(0);
  });

  it("two workers at once still tell each lot once (PostgreSQL when TEST_DATABASE_URL is set)", async () => {
    const members = await Promise.all(Array.from({ length: 6 }, () => api.createUser({ points: 100 })));
    const ids = members.map((m) => m.id);
    const [lot] = await db()
      .select()
      .from(pointLots)
      .where(eq(pointLots.userId, ids[0] as string));
    const at = new Date(must(lot).expiresAt.getTime() - 6 * DAY);
    const runs = await Promise.all([
      sendExpiryNotices(deps(), at, 2),
      sendExpiryNotices(deps(), at, 2),
      sendExpiryNotices(deps(), at, 50),
    ]);
    await sendExpiryNotices(deps(), at);
    const told = await db()
      .select({ to: mailOutbox.to })
      .from(mailOutbox)
      .where(like(mailOutbox.subject, "%有効期限%"));
    for (const m of members) expect(told.filter((t) => t.to === `${m.userID}@example.jp`)).toHaveLength(1);
    expect(runs.reduce((n, r) => n + r.lots, 0)).toBeGreaterThan(0);
  });
});
