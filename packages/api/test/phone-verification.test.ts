import {
  adminAuditLog,
  loginBonuses,
  phoneVerificationCodes,
  pointLedger,
  pointLots,
  rowsOf,
  users,
} from "@enmusubi/db";
import {
  FREE_POINT_VALIDITY_DAYS,
  MSG,
  PHONE_VERIFICATION,
  phoneCodeWrongLeft,
  SIGNUP_BONUS_POINTS,
  TERMS_VERSION,
} from "@enmusubi/shared";
import { and, desc, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { purgeWithdrawn } from "../src/accounts/retention";
import { createContextInner } from "../src/context";
import { createRecordingSms } from "../src/phone/sms";
import { grantLoginBonus } from "../src/points/bonuses";
import { createCaller } from "../src/root";
import { createDatabaseRateLimiter, type RateLimiter } from "../src/security/rate-limit";
import { currentSession } from "../src/testing";
import { snapshotTables, type TestUser, useTestApi } from "./helpers";

/*
 * Phone verification by SMS and the bonuses it gates (decision 0048): one live account per number,
 * codes that die after 5 wrong tries or 10 minutes, resends limited in PostgreSQL, the sign-up
 * bonus once on verification, the daily login bonus once per Japanese day.
 */

const sms = createRecordingSms();
const api = useTestApi({ sms });
const db = () => api.database.db;
let limiter: RateLimiter;
beforeAll(() => {
  limiter = createDatabaseRateLimiter(db());
});

/** A caller whose sends are counted in the test database (the helper's default counts nothing). */
async function phoneOf(user: TestUser) {
  const session = await currentSession(db(), user);
  return createCaller(createContextInner({ ...api.deps, limiter }, session)).phone;
}

let numbers = 0;
/** A fresh mobile number per test, so the per-number allowance of one test does not touch another. */
function freshNumber(): { typed: string; e164: string } {
  numbers += 1;
  const digits = String(10_000_000 + ((process.pid * 7919 + numbers * 104_729) % 89_999_999)).slice(0, 8);
  return { typed: `090-${digits.slice(0, 4)}-${digits.slice(4)}`, e164: `+8190${digits}` };
}

/** The code in the newest SMS to `e164`. */
function lastCode(e164: string): string {
  const message = [...sms.sent].reverse().find((m) => m.to === e164);
  const code = message?.text.match(/(\d{6})/)?.[1];
  if (!code) throw new Error(`no SMS to ${e164}`);
  return code;
}

/** A member who signed up by themselves: no points yet, the sign-up bonus waiting. */
const newMember = () => api.createUser({ points: 0, signupBonusPending: true });

/** Moves the member's newest code's clock back by `seconds` (a code sent that long ago). */
async function ageCode(userId: string, seconds: number) {
  await db().execute(
    sql`update phone_verification_codes
        set created_at = created_at - make_interval(secs => ${seconds}), expires_at = expires_at - make_interval(secs => ${seconds})
        where id = (select id from phone_verification_codes where user_id = ${userId} order by created_at desc limit 1)`,
  );
}

async function balanceBooks(userId: string) {
  const [row] = await db()
    .select({
      points: users.points,
      ledger: sql<number>`(select coalesce(sum(delta), 0)::int from ${pointLedger} where user_id = ${userId} and account = 'points')`,
      lots: sql<number>`(select coalesce(sum(remaining), 0)::int from ${pointLots} where user_id = ${userId})`,
    })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}

async function verify(user: TestUser, number = freshNumber()) {
  const phone = await phoneOf(user);
  await phone.requestCode({ phone: number.typed });
  return phone.confirmCode({ code: lastCode(number.e164) });
}

describe("the number as typed", () => {
  it("reads full-width digits, hyphens and +81, and stores E.164", async () => {
    const member = await newMember();
    const phone = await phoneOf(member);
    const sent = await phone.requestCode({ phone: "０８０ー１２３４ー０００１" });
    expect(sent).toMatchObject({ message: MSG.phoneCodeSent, phone: "080-1234-0001" });
    expect(sms.sent.at(-1)?.to).toBe("+818012340001");
    expect(sms.sent.at(-1)?.text).toMatch(/確認コード：\d{6}（10分間有効）/);
    await expect(phone.confirmCode({ code: lastCode("+818012340001") })).resolves.toMatchObject({
      message: MSG.phoneVerified,
      phone: "080-****-0001",
    });
    const [row] = await db().select().from(users).where(eq(users.id, member.id));
    expect(row?.phoneNumber).toBe("+818012340001");
  });

  it("refuses what is not a Japanese mobile number in Japanese, storing and sending nothing", async () => {
    const member = await newMember();
    const phone = await phoneOf(member);
    const before = await snapshotTables(api, "users", "phone_verification_codes", "rate_limit_counters");
    const sentBefore = sms.sent.length;
    for (const typed of ["03-1234-5678", "090-1234-567", "0120-123-456", "06012345678", "abc", "090123456789"]) {
      await expect(phone.requestCode({ phone: typed })).rejects.toMatchObject({
        code: "BAD_REQUEST",
        message: MSG.phoneInvalid,
      });
    }
    await expect(phone.requestCode({ phone: "" })).rejects.toMatchObject({ message: MSG.phoneRequired });
    expect(await snapshotTables(api, "users", "phone_verification_codes", "rate_limit_counters")).toEqual(before);
    expect(sms.sent.length).toBe(sentBefore);
  });
});

describe("one account per number", () => {
  it("a second account is refused with a clear message, the database unchanged", async () => {
    const number = freshNumber();
    const first = await newMember();
    await verify(first, number);
    const second = await newMember();
    const before = await snapshotTables(
      api,
      "users",
      "phone_verification_codes",
      "rate_limit_counters",
      "point_ledger",
      "point_lots",
    );
    const sentBefore = sms.sent.length;
    // Typed another way, the same number.
    await expect((await phoneOf(second)).requestCode({ phone: number.e164 })).rejects.toMatchObject({
      code: "CONFLICT",
      message: MSG.phoneTaken,
    });
    expect(
      await snapshotTables(
        api,
        "users",
        "phone_verification_codes",
        "rate_limit_counters",
        "point_ledger",
        "point_lots",
      ),
    ).toEqual(before);
    expect(sms.sent.length).toBe(sentBefore);
  });

  it("two accounts with codes to one number: the second to confirm is refused, nothing of it changed", async () => {
    const number = freshNumber();
    const one = await newMember();
    const two = await newMember();
    const phoneOne = await phoneOf(one);
    const phoneTwo = await phoneOf(two);
    await phoneOne.requestCode({ phone: number.typed });
    const codeOne = lastCode(number.e164);
    await phoneTwo.requestCode({ phone: number.typed });
    const codeTwo = lastCode(number.e164);
    await phoneOne.confirmCode({ code: codeOne });
    const before = await snapshotTables(api, "users", "point_ledger", "point_lots");
    await expect(phoneTwo.confirmCode({ code: codeTwo })).rejects.toMatchObject({
      code: "CONFLICT",
      message: MSG.phoneTaken,
    });
    expect(await snapshotTables(api, "users", "point_ledger", "point_lots")).toEqual(before);
    expect((await phoneTwo.status()).verified).toBe(false);
  });

  it("a suspended member's number stays taken; a withdrawn one's frees when the retention ends", async () => {
    const suspendedNumber = freshNumber();
    const gyousha = await newMember();
    await verify(gyousha, suspendedNumber);
    await db().update(users).set({ suspendedAt: new Date() }).where(eq(users.id, gyousha.id));
    const again = await newMember();
    await expect((await phoneOf(again)).requestCode({ phone: suspendedNumber.typed })).rejects.toMatchObject({
      message: MSG.phoneTaken,
    });

    const leftNumber = freshNumber();
    const leaver = await newMember();
    await verify(leaver, leftNumber);
    await api.caller(leaver).account.withdraw({ password: leaver.password });
    const later = await newMember();
    await expect((await phoneOf(later)).requestCode({ phone: leftNumber.typed })).rejects.toMatchObject({
      message: MSG.phoneTaken,
    });
    // A year and a day later the retention job deletes the personal data, the number with it.
    await purgeWithdrawn({ db: db(), uploadsDir: api.deps.uploadsDir }, new Date(Date.now() + 366 * 86_400_000));
    await expect(verify(later, leftNumber)).resolves.toMatchObject({ message: MSG.phoneVerified });
  });

  it("a verified member cannot ask again; an administrator clears it (audited) and the number is free", async () => {
    const number = freshNumber();
    const member = await newMember();
    const admin = await api.createUser({ role: "admin" });
    await verify(member, number);
    await expect((await phoneOf(member)).requestCode({ phone: freshNumber().typed })).rejects.toMatchObject({
      code: "CONFLICT",
      message: MSG.phoneAlreadyVerified,
    });
    expect(await api.caller(admin).adminPhone.state({ id: member.id })).toMatchObject({
      verified: true,
      phone: number.typed,
      signupBonusPending: false,
    });
    await expect(api.caller(admin).adminPhone.clear({ id: member.id })).resolves.toEqual({
      message: MSG.phoneCleared,
    });
    const [audit] = await db()
      .select()
      .from(adminAuditLog)
      .where(and(eq(adminAuditLog.action, "user.phone.clear"), eq(adminAuditLog.targetId, member.id)));
    expect(audit?.details).toEqual({ before: { phone: number.typed }, after: { phone: null } });
    // Clearing again: nothing to clear, nothing written.
    const before = await snapshotTables(api, "users", "admin_audit_log");
    await expect(api.caller(admin).adminPhone.clear({ id: member.id })).rejects.toMatchObject({
      code: "CONFLICT",
      message: MSG.phoneNotVerified,
    });
    expect(await snapshotTables(api, "users", "admin_audit_log")).toEqual(before);
    // Another account may take the number now.
    await expect(verify(await newMember(), number)).resolves.toMatchObject({ signupBonusPoints: SIGNUP_BONUS_POINTS });
  });
});

describe("the code", () => {
  it("5 wrong tries kill it: the right code is then refused too", async () => {
    const number = freshNumber();
    const member = await newMember();
    const phone = await phoneOf(member);
    await phone.requestCode({ phone: number.typed });
    const right = lastCode(number.e164);
    const wrong = right === "000000" ? "111111" : "000000";
    for (let left = PHONE_VERIFICATION.maxAttempts - 1; left >= 1; left--) {
      await expect(phone.confirmCode({ code: wrong })).rejects.toMatchObject({
        code: "BAD_REQUEST",
        message: phoneCodeWrongLeft(left),
      });
    }
    await expect(phone.confirmCode({ code: wrong })).rejects.toMatchObject({ message: MSG.phoneCodeDead });
    await expect(phone.confirmCode({ code: right })).rejects.toMatchObject({ message: MSG.phoneCodeDead });
    const [row] = await db().select().from(users).where(eq(users.id, member.id));
    expect(row?.phoneNumber).toBeNull();
    expect(row?.points).toBe(0);
    expect((await phone.status()).pendingCode).toBeNull();
  });

  it("concurrent wrong tries never get more than 5 checks", async () => {
    const number = freshNumber();
    const member = await newMember();
    const phone = await phoneOf(member);
    await phone.requestCode({ phone: number.typed });
    const wrong = lastCode(number.e164) === "000000" ? "111111" : "000000";
    const answers = await Promise.allSettled(Array.from({ length: 12 }, () => phone.confirmCode({ code: wrong })));
    expect(answers.every((a) => a.status === "rejected")).toBe(true);
    const [code] = await db()
      .select({ attempts: phoneVerificationCodes.attempts })
      .from(phoneVerificationCodes)
      .where(eq(phoneVerificationCodes.userId, member.id));
    expect(code?.attempts).toBe(PHONE_VERIFICATION.maxAttempts);
  });

  it("is stored hashed, never as sent", async () => {
    const number = freshNumber();
    const member = await newMember();
    await (await phoneOf(member)).requestCode({ phone: number.typed });
    const code = lastCode(number.e164);
    const rows = await db().select().from(phoneVerificationCodes).where(eq(phoneVerificationCodes.userId, member.id));
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(code);
    expect(rows[0]?.codeHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("expires at 10 minutes: a second before, it verifies; at 10 minutes it is refused", async () => {
    const early = await newMember();
    const earlyNumber = freshNumber();
    await (await phoneOf(early)).requestCode({ phone: earlyNumber.typed });
    await ageCode(early.id, PHONE_VERIFICATION.codeTtlMinutes * 60 - 2);
    await expect((await phoneOf(early)).confirmCode({ code: lastCode(earlyNumber.e164) })).resolves.toMatchObject({
      message: MSG.phoneVerified,
    });

    const late = await newMember();
    const lateNumber = freshNumber();
    await (await phoneOf(late)).requestCode({ phone: lateNumber.typed });
    await ageCode(late.id, PHONE_VERIFICATION.codeTtlMinutes * 60);
    const before = await snapshotTables(api, "users", "point_ledger");
    await expect((await phoneOf(late)).confirmCode({ code: lastCode(lateNumber.e164) })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: MSG.phoneCodeExpired,
    });
    expect(await snapshotTables(api, "users", "point_ledger")).toEqual(before);
  });

  it("only the newest code counts; without any, the member is told to send one", async () => {
    const member = await newMember();
    const phone = await phoneOf(member);
    await expect(phone.confirmCode({ code: "123456" })).rejects.toMatchObject({ message: MSG.phoneNoCode });
    const number = freshNumber();
    await phone.requestCode({ phone: number.typed });
    const first = lastCode(number.e164);
    await ageCode(member.id, PHONE_VERIFICATION.resendIntervalSeconds);
    await phone.requestCode({ phone: number.typed });
    const second = lastCode(number.e164);
    if (first !== second) {
      await expect(phone.confirmCode({ code: first })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    }
    await expect(phone.confirmCode({ code: second })).resolves.toMatchObject({ message: MSG.phoneVerified });
  });

  it("refuses a code that is not 6 digits before counting a try", async () => {
    const member = await newMember();
    const phone = await phoneOf(member);
    await phone.requestCode({ phone: freshNumber().typed });
    const before = await snapshotTables(api, "phone_verification_codes");
    for (const code of ["12345", "1234567", "abcdef"]) {
      await expect(phone.confirmCode({ code })).rejects.toMatchObject({ message: MSG.phoneCodeFormat });
    }
    expect(await snapshotTables(api, "phone_verification_codes")).toEqual(before);
  });
});

describe("resends", () => {
  it("wait the interval, with the seconds left told", async () => {
    const member = await newMember();
    const phone = await phoneOf(member);
    const number = freshNumber();
    await phone.requestCode({ phone: number.typed });
    const status = await phone.status();
    expect(status.resendWaitSeconds).toBeGreaterThan(PHONE_VERIFICATION.resendIntervalSeconds - 5);
    expect(status.pendingCode).toMatchObject({ phone: number.typed, attemptsLeft: PHONE_VERIFICATION.maxAttempts });
    const before = await snapshotTables(api, "phone_verification_codes", "rate_limit_counters");
    await expect(phone.requestCode({ phone: number.typed })).rejects.toMatchObject({
      code: "TOO_MANY_REQUESTS",
      message: expect.stringMatching(/^確認コードの再送信はあと\d+秒お待ちください。$/),
    });
    expect(await snapshotTables(api, "phone_verification_codes", "rate_limit_counters")).toEqual(before);
    await ageCode(member.id, PHONE_VERIFICATION.resendIntervalSeconds);
    await expect(phone.requestCode({ phone: number.typed })).resolves.toMatchObject({ message: MSG.phoneCodeSent });
  });

  it("are limited per number (whoever asks) and per member, counted in PostgreSQL", async () => {
    const number = freshNumber();
    // Per number: 5 sends a day, from several members.
    for (let i = 0; i < PHONE_VERIFICATION.sendsPerNumberDay; i++) {
      await (await phoneOf(await newMember())).requestCode({ phone: number.typed });
    }
    const sentBefore = sms.sent.length;
    await expect((await phoneOf(await newMember())).requestCode({ phone: number.typed })).rejects.toMatchObject({
      code: "TOO_MANY_REQUESTS",
      message: MSG.phoneSendLimit,
    });
    expect(sms.sent.length).toBe(sentBefore);
    // Per member: 8 sends a day, to any numbers.
    const member = await newMember();
    const phone = await phoneOf(member);
    for (let i = 0; i < PHONE_VERIFICATION.sendsPerMemberDay; i++) {
      await phone.requestCode({ phone: freshNumber().typed });
      await ageCode(member.id, PHONE_VERIFICATION.resendIntervalSeconds);
    }
    await expect(phone.requestCode({ phone: freshNumber().typed })).rejects.toMatchObject({
      message: MSG.phoneSendLimit,
    });
    const [counter] = await rowsOfCounter(`sms:member:${member.id}`);
    expect(counter?.count).toBe(PHONE_VERIFICATION.sendsPerMemberDay + 1);
  });

  it("a failed SMS kills its code and answers in Japanese", async () => {
    const failing = { send: async () => Promise.reject(new Error("provider down")) };
    const member = await newMember();
    const session = await currentSession(db(), member);
    const phone = createCaller(createContextInner({ ...api.deps, limiter, sms: failing }, session)).phone;
    await expect(phone.requestCode({ phone: freshNumber().typed })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: MSG.phoneSmsFailed,
    });
    expect((await phone.status()).pendingCode).toBeNull();
  });
});

const rowsOfCounter = (key: string) =>
  rowsOf<{ count: number }>(db(), sql`select count from rate_limit_counters where key = ${key}`);

describe("the sign-up bonus waits for the phone", () => {
  it("a member's own sign-up opens no points; verifying grants 100 free points once, valid 180 days", async () => {
    await api.caller().auth.join({
      email: "phone-bonus@example.jp",
      gender: "female",
      acceptTerms: true,
      adult: true,
      termsVersion: TERMS_VERSION,
    });
    const [row] = await db().select().from(users).where(eq(users.email, "phone-bonus@example.jp"));
    expect(row).toMatchObject({ points: 0, signupBonusPending: true });
    const member = await api.createUser({ points: 0, signupBonusPending: true });
    const before = await balanceBooks(member.id);
    expect(before?.points).toBe(0);
    const verified = await verify(member);
    expect(verified.signupBonusPoints).toBe(SIGNUP_BONUS_POINTS);
    expect(await balanceBooks(member.id)).toEqual({
      points: SIGNUP_BONUS_POINTS,
      ledger: SIGNUP_BONUS_POINTS,
      lots: SIGNUP_BONUS_POINTS,
    });
    const [lot] = await db()
      .select({
        source: pointLots.source,
        paid: pointLots.paid,
        days: sql<number>`round(extract(epoch from (expires_at - created_at)) / 86400)::int`,
      })
      .from(pointLots)
      .where(eq(pointLots.userId, member.id));
    expect(lot).toEqual({ source: "signup_bonus", paid: false, days: FREE_POINT_VALIDITY_DAYS });
  });

  it("never twice: cleared by an administrator and verified again, no second bonus", async () => {
    const member = await newMember();
    const admin = await api.createUser({ role: "admin" });
    await verify(member);
    await api.caller(admin).adminPhone.clear({ id: member.id });
    await ageCode(member.id, PHONE_VERIFICATION.resendIntervalSeconds);
    const again = await verify(member);
    expect(again.signupBonusPoints).toBe(0);
    const bonuses = await db()
      .select()
      .from(pointLedger)
      .where(and(eq(pointLedger.userId, member.id), eq(pointLedger.kind, "signup_bonus")));
    expect(bonuses).toHaveLength(1);
    expect((await balanceBooks(member.id))?.points).toBe(SIGNUP_BONUS_POINTS);
  });

  it("accounts that did not sign up themselves (tests, administrators' accounts) get none", async () => {
    const member = await api.createUser();
    const points = (await balanceBooks(member.id))?.points;
    expect((await verify(member)).signupBonusPoints).toBe(0);
    expect((await balanceBooks(member.id))?.points).toBe(points);
  });

  it("a failure inside the verifying transaction changes nothing", async () => {
    const member = await newMember();
    const number = freshNumber();
    await (await phoneOf(member)).requestCode({ phone: number.typed });
    // The ledger refuses the bonus (a trigger standing for any failure after the number was written).
    await db().execute(sql`create or replace function phone_test_fail() returns trigger language plpgsql as $$
      begin raise exception 'ledger refused'; end $$`);
    await db().execute(sql`create trigger phone_test_fail before insert on point_ledger for each row
      when (new.kind = 'signup_bonus') execute function phone_test_fail()`);
    try {
      const before = await snapshotTables(api, "users", "point_ledger", "point_lots");
      await expect((await phoneOf(member)).confirmCode({ code: lastCode(number.e164) })).rejects.toBeTruthy();
      expect(await snapshotTables(api, "users", "point_ledger", "point_lots")).toEqual(before);
      const [code] = await db()
        .select({ consumedAt: phoneVerificationCodes.consumedAt })
        .from(phoneVerificationCodes)
        .where(eq(phoneVerificationCodes.userId, member.id));
      expect(code?.consumedAt).toBeNull();
    } finally {
      await db().execute(sql`drop trigger phone_test_fail on point_ledger`);
    }
  });
});

describe("the daily login bonus", () => {
  const JST_DAY_START = (day: string) => new Date(`${day}T00:00:00+09:00`);
  async function setBonus(points: number) {
    const admin = await api.createUser({ role: "admin" });
    await api.caller(admin).adminPhone.saveBonusSettings({ loginBonusPoints: points });
  }
  const ledgerOf = (userId: string) =>
    db()
      .select({ delta: pointLedger.delta, reference: pointLedger.reference })
      .from(pointLedger)
      .where(and(eq(pointLedger.userId, userId), eq(pointLedger.kind, "login_bonus")))
      .orderBy(desc(pointLedger.createdAt));

  it("once per Japanese day, around midnight JST", async () => {
    await setBonus(5);
    const member = await api.createUser();
    await verify(member);
    const lastSecond = new Date(JST_DAY_START("2026-12-02").getTime() - 1000); // 23:59:59 on 12/01 JST
    expect(await grantLoginBonus(db(), member.id, lastSecond)).toEqual({ day: "2026-12-01", points: 5 });
    expect(await grantLoginBonus(db(), member.id, new Date(lastSecond.getTime() + 500))).toEqual({
      day: "2026-12-01",
      points: 0,
    });
    expect(await grantLoginBonus(db(), member.id, JST_DAY_START("2026-12-02"))).toEqual({
      day: "2026-12-02",
      points: 5,
    });
    // 08:59:59 UTC is still 12/02 in Japan (17:59:59 JST); 15:00 UTC is 12/03 0:00 JST.
    expect(await grantLoginBonus(db(), member.id, new Date("2026-12-02T08:59:59Z"))).toMatchObject({ points: 0 });
    expect(await grantLoginBonus(db(), member.id, new Date("2026-12-02T15:00:00Z"))).toEqual({
      day: "2026-12-03",
      points: 5,
    });
    expect((await ledgerOf(member.id)).map((r) => r.reference)).toEqual([
      "login_bonus:2026-12-03",
      "login_bonus:2026-12-02",
      "login_bonus:2026-12-01",
    ]);
    const books = await balanceBooks(member.id);
    expect(books?.points).toBe(books?.ledger);
    expect(books?.points).toBe(books?.lots);
  });

  it("not for members without a verified phone, nor with the bonus off", async () => {
    await setBonus(5);
    const unverified = await api.createUser();
    const before = await snapshotTables(api, "point_ledger", "login_bonuses");
    expect(await grantLoginBonus(db(), unverified.id)).toMatchObject({ points: 0 });
    // Signed-in requests of an unverified member: no bonus either.
    await api.caller(unverified).phone.status();
    expect(await snapshotTables(api, "point_ledger", "login_bonuses")).toEqual(before);

    await setBonus(0);
    const verified = await api.createUser();
    await verify(verified);
    expect(await grantLoginBonus(db(), verified.id, new Date("2030-01-01T00:00:00Z"))).toMatchObject({ points: 0 });
    expect(await db().select().from(loginBonuses).where(eq(loginBonuses.userId, verified.id))).toEqual([]);
  });

  it("a failure in the bonus's transaction changes nothing, and the day is not used up", async () => {
    await setBonus(5);
    const member = await api.createUser();
    await verify(member);
    await db().execute(sql`insert into login_bonuses (user_id, day, points, ledger_id)
      select ${member.id}, '2031-05-05', 1, id from point_ledger where user_id = ${member.id} limit 1`);
    const before = await snapshotTables(api, "users", "point_ledger", "point_lots", "login_bonuses");
    // A row for the day already there (standing for any failure): the credit is rolled back with it.
    await expect(grantLoginBonus(db(), member.id, new Date("2031-05-05T03:00:00Z"))).rejects.toBeTruthy();
    expect(await snapshotTables(api, "users", "point_ledger", "point_lots", "login_bonuses")).toEqual(before);
  });
});
