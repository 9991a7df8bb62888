import { rowsOf } from "@enmusubi/db";
import { MSG } from "@enmusubi/shared";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { addDays, CHART_DAYS, dashboardSummary, monthStarts, waitingWork } from "../src/dashboard/figures";
import { LIST_COUNT_CAP } from "../src/lists/capped-count";
import { csvField } from "../src/lists/csv";
import { GRAM_PROBE_LIMIT } from "../src/search/grams";
import { usersExportPage } from "../src/users/admin-export";
import { type TestUser, useTestApi } from "./helpers";

const api = useTestApi();
let admin: TestUser;
let member: TestUser;
/** The fixed clock: 2030-03-10 12:00 in Japan. */
const NOW = new Date("2030-03-10T03:00:00Z");
const db = () => api.database.db;

beforeAll(async () => {
  admin = await api.createUser({ role: "admin" });
  member = await api.createUser();
  const d = db();
  // Sign-ups on fixed Japanese days: 3 on 03-10 (today, one at 00:30 JST), 2 on 03-04 (the 7th day
  // back), 1 on 03-03 (outside the week), 1 on 02-10 (the chart's first day is 02-09).
  await d.execute(sql`
    insert into users (user_id, name, email, password_hash, gender, verification_status, created_at)
    values
      ('dash01', '佐藤花子', 'hanako.sato@example.com', 'x', 'female', 'verified', '2030-03-09T15:30:00Z'),
      ('dash02', '鈴木一郎', 'ichiro@sample.jp', 'x', 'male', 'verified', '2030-03-10T01:00:00Z'),
      ('dash03', '=HYPERLINK("x")', 'formula@example.com', 'x', 'male', 'unverified', '2030-03-10T02:00:00Z'),
      ('dash04', 'さとう太郎', 'taro@example.com', 'x', 'male', 'pending', '2030-03-04T00:00:00Z'),
      ('dash05', '高橋, "次郎"', 'jiro@example.com', 'x', 'male', 'unverified', '2030-03-03T14:59:00Z'),
      ('dash06', '田中', 'tanaka@example.com', 'x', 'female', 'verified', '2030-02-10T03:00:00Z')`);
  const id = async (userId: string) =>
    (await rowsOf<{ id: string }>(d, sql`select id from users where user_id = ${userId}`))[0]?.id as string;
  const [a, b] = [await id("dash01"), await id("dash02")];
  // Messages: two today (JST), one yesterday 23:59 JST, one deleted today.
  await d.execute(sql`
    insert into messages (from_user_id, to_user_id, body, created_at, deleted_at) values
      (${a}, ${b}, 'a', '2030-03-09T15:00:00Z', null),
      (${b}, ${a}, 'b', '2030-03-10T02:59:00Z', null),
      (${a}, ${b}, 'c', '2030-03-09T14:59:00Z', null),
      (${a}, ${b}, 'd', '2030-03-10T01:00:00Z', '2030-03-10T01:01:00Z')`);
  await d.execute(sql`
    insert into board_posts (author_id, title, content, created_at) values
      (${a}, 't', 'c', '2030-03-10T00:00:00Z'), (${a}, 't', 'c', '2030-03-08T00:00:00Z')`);
  // Orders: paid this month (2), paid last month (1), pending bank transfer (1), cancelled (1).
  await d.execute(sql`
    insert into purchase_transactions (transaction_id, user_id, payment_method, amount, points, status, created_at) values
      ('DASH1', ${a}, 'bank_transfer', 3000, 300, 'paid', '2030-03-02T01:00:00Z'),
      ('DASH2', ${a}, 'smart_pit', 5000, 500, 'paid', '2030-03-10T01:00:00Z'),
      ('DASH3', ${b}, 'bank_transfer', 1000, 100, 'paid', '2030-02-15T01:00:00Z'),
      ('DASH4', ${b}, 'bank_transfer', 2000, 200, 'pending', '2030-03-09T01:00:00Z'),
      ('DASH5', ${b}, 'bank_transfer', 9000, 900, 'cancelled', '2030-03-09T01:00:00Z')`);
  // Points spent: 30 this month (two charges), 7 last month; a refund and a purchase do not count.
  await d.execute(sql`
    insert into point_ledger (user_id, account, kind, delta, balance_after, created_at) values
      (${a}, 'points', 'charge', -10, 0, '2030-03-05T00:00:00Z'),
      (${a}, 'points', 'prepaid_charge', -20, 0, '2030-03-10T00:00:00Z'),
      (${a}, 'points', 'charge', -7, 0, '2030-02-28T14:59:00Z'),
      (${a}, 'send_points', 'charge', -100, 0, '2030-03-05T00:00:00Z'),
      (${a}, 'points', 'refund', 5, 0, '2030-03-05T00:00:00Z'),
      (${a}, 'points', 'purchase', 500, 0, '2030-03-05T00:00:00Z')`);
  // Work waiting: one unread inquiry (one read), one open report (one dismissed), one failed schedule.
  await d.execute(sql`
    insert into inquiries (user_id, title, message, is_read) values (${a}, 'q', 'm', false), (${a}, 'q', 'm', true)`);
  await d.execute(sql`
    insert into reports (reporter_id, target_type, target_id, target_user_id, reason, status, handled_at) values
      (${a}, 'member', ${b}, ${b}, 'business', 'open', null),
      (${b}, 'member', ${a}, ${a}, 'business', 'dismissed', now())`);
  await d.execute(sql`
    insert into scheduled_messages (type, owner_id, recipients, content, scheduled_at, source, status) values
      ('batch', ${admin.id}, array[${a}]::uuid[], 'x', now(), 'admin:user-mgmt', 'failed')`);
  await d.execute(sql`analyze users`);
}, 60_000);

describe("dashboard figures (fixed clock, Japanese days)", () => {
  it("counts members, this week's sign-ups and the verified share", async () => {
    const s = await dashboardSummary(db(), NOW);
    expect(s.today).toBe("2030-03-10");
    const live = await rowsOf<{ n: number; v: number }>(
      db(),
      sql`select count(*)::int as n, count(*) filter (where verification_status = 'verified')::int as v
          from users where deleted_at is null and role = 'user'`,
    );
    expect(s.members.total).toEqual({ value: live[0]?.n, capped: false, estimated: false });
    expect(s.members.verified.value).toBe(live[0]?.v);
    expect(s.members.verifiedShare).toBeCloseTo((live[0]?.v ?? 0) / (live[0]?.n ?? 1));
    // 03-04 … 03-10: dash01 (03-10 00:30 JST), dash02, dash03, dash04; not dash05 (03-03 23:59 JST).
    expect(s.members.newThisWeek).toBe(4);
  });

  it("counts today's messages and board posts by the Japanese day, deleted ones left out", async () => {
    const s = await dashboardSummary(db(), NOW);
    expect(s.activity.messagesToday).toEqual({ value: 2, capped: false, estimated: false });
    expect(s.activity.boardPostsToday.value).toBe(1);
  });

  it("sums points sold (paid orders) and spent (charges of points) this month against last month", async () => {
    const s = await dashboardSummary(db(), NOW);
    expect(s.points).toEqual({
      month: "2030-03",
      lastMonth: "2030-02",
      soldThisMonth: 800,
      soldLastMonth: 100,
      spentThisMonth: 30,
      spentLastMonth: 7,
    });
  });

  it("draws 30 days of sign-ups and sales, every day present, ending today", async () => {
    const s = await dashboardSummary(db(), NOW);
    expect(s.signups).toHaveLength(CHART_DAYS);
    expect(s.signups[0]?.day).toBe("2030-02-09");
    expect(s.signups.at(-1)).toEqual({ day: "2030-03-10", count: 3 });
    expect(s.signups.find((r) => r.day === "2030-02-10")?.count).toBe(1);
    expect(s.signups.find((r) => r.day === "2030-03-03")?.count).toBe(1);
    expect(s.sales.at(-1)).toEqual({ day: "2030-03-10", count: 1, amount: 5000, points: 500 });
    expect(s.sales.find((r) => r.day === "2030-03-09")?.count).toBe(0);
    expect(s.sales.reduce((sum, r) => sum + r.amount, 0)).toBe(9000);
  });

  it("lists the work waiting: verifications, unread inquiries, open reports, payments, failed schedules", async () => {
    const w = await waitingWork(db());
    expect(w.inquiries.value).toBe(1);
    expect(w.reports.value).toBe(1);
    expect(w.pendingTransfers).toBe(1);
    expect(w.payments.value).toBe(1);
    expect(w.failedScheduled.value).toBe(1);
    expect(w.verifications.value).toBe(0);
    // Through the procedure, an administrator only.
    const viaProcedure = await api.caller(admin).adminDashboard.waiting();
    expect(viaProcedure.reports.value).toBe(1);
    await expect(api.caller(member).adminDashboard.summary()).rejects.toMatchObject({ code: "FORBIDDEN" });
  });

  it("month and day arithmetic crosses years", () => {
    expect(monthStarts("2030-01-31")).toEqual({ thisMonth: "2030-01-01", lastMonth: "2029-12-01" });
    expect(addDays("2030-03-01", -1)).toBe("2030-02-28");
  });
});

describe("user search by name, e-mail and user ID", () => {
  const find = async (q: string) =>
    (await api.caller(admin).adminUsers.list({ q, pageSize: 50 })).users.map((u) => u.userID).sort();

  it("finds a name (kana folded), part of an e-mail address and a user ID", async () => {
    expect(await find("佐藤")).toEqual(["dash01"]);
    // 「さとう」 finds 「さとう太郎」 (and not 佐藤: kanji are not kana).
    expect(await find("サトウ")).toEqual(["dash04"]);
    expect(await find("sample.jp")).toEqual(["dash02"]);
    expect(await find("HANAKO.SATO@EXAMPLE")).toEqual(["dash01"]);
    expect(await find("dash0")).toEqual(["dash01", "dash02", "dash03", "dash04", "dash05", "dash06"]);
    expect(await find("sh03")).toEqual(["dash03"]);
    // Every word must match, each in any of the three.
    expect(await find("花子 example")).toEqual(["dash01"]);
    expect(await find("佐藤 nothing")).toEqual([]);
  });

  it("tells the matches and every member apart", async () => {
    const page = await api.caller(admin).adminUsers.list({ q: "佐藤" });
    expect(page).toMatchObject({ total: 1, totalCapped: false, totalEstimated: false });
    const all = await rowsOf<{ n: number }>(db(), sql`select count(*)::int as n from users where deleted_at is null`);
    expect(page.allUsers).toBe(all[0]?.n);
    expect(page.allUsers).toBeGreaterThan(page.total);
  });

  it("a 1–2 character word finds a name or a user ID's start, not the inside of an e-mail", async () => {
    expect(await find("田中")).toEqual(["dash06"]);
    expect(await find("da")).toContain("dash01");
    expect(await find("jp")).toEqual([]);
  });

  it("a common keyword (more candidates than the probe reads) walks the list newest first, its count capped", async () => {
    await db().execute(sql`
      insert into users (user_id, name, email, password_hash, created_at)
      select 'yam' || g, '山田' || g, 'yam' || g || '@example.com', 'x', now() - interval '1 day' + g * interval '1 second'
      from generate_series(1, ${GRAM_PROBE_LIMIT + 100}) g`);
    const page = await api.caller(admin).adminUsers.list({ q: "山田", pageSize: 10 });
    expect(page).toMatchObject({ total: LIST_COUNT_CAP, totalCapped: true, totalPages: LIST_COUNT_CAP / 10 + 1 });
    expect(page.users.map((u) => u.userID)).toEqual(
      Array.from({ length: 10 }, (_, i) => `yam${GRAM_PROBE_LIMIT + 100 - i}`),
    );
    const one = await api.caller(admin).adminUsers.list({ q: `山田 yam${GRAM_PROBE_LIMIT + 7}@` });
    expect(one.users.map((u) => u.userID)).toEqual([`yam${GRAM_PROBE_LIMIT + 7}`]);
    expect(one.total).toBe(1);
  });

  it("refuses a keyword over 100 characters with the catalogue's message, changing nothing", async () => {
    await expect(api.caller(admin).adminUsers.list({ q: "あ".repeat(101) })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: MSG.userSearchTooLong,
    });
  });
});

describe("members as CSV", () => {
  it("starts with a BOM and the headings and writes the audit row with the filter", async () => {
    const { header } = await api.caller(admin).adminUsers.exportStart({ q: "dash" });
    expect(header.charCodeAt(0)).toBe(0xfeff);
    expect(header).toBe(
      "\uFEFFユーザーID,名前,メールアドレス,性別,生年月日,住所,職業,年収,ポイント,送信ポイント,年齢確認,利用停止,権限,登録日時\r\n",
    );
    const audit = await rowsOf<{ action: string; admin_id: string; details: { q: string } }>(
      db(),
      sql`select action, admin_id, details from admin_audit_log where action = 'user.export' order by created_at desc limit 1`,
    );
    expect(audit[0]).toMatchObject({ action: "user.export", admin_id: admin.id, details: { q: "dash" } });
    await expect(api.caller(member).adminUsers.exportStart({})).rejects.toMatchObject({ code: "FORBIDDEN" });
  });

  it("holds the filtered members newest first, quoted and defused, never a password hash", async () => {
    const page = await usersExportPage(db(), { q: "dash" });
    const lines = page.csv.split("\r\n").filter(Boolean);
    expect(lines).toHaveLength(6);
    expect(lines[0]).toBe(
      'dash03,"\'=HYPERLINK(""x"")",formula@example.com,男性,,,,,0,0,未確認,,会員,2030-03-10 11:00:00',
    );
    expect(lines[1]).toMatch(/^dash02,鈴木一郎,ichiro@sample\.jp,男性,/);
    expect(lines).toContain('dash05,"高橋, ""次郎""",jiro@example.com,男性,,,,,0,0,未確認,,会員,2030-03-03 23:59:00');
    expect(page.csv).not.toContain("$argon2");
    expect(page.next).toBeNull();
    const women = await usersExportPage(db(), { field: "gender", search: "女性", q: "dash" });
    expect(
      women.csv
        .split("\r\n")
        .filter(Boolean)
        .map((l) => l.split(",")[0]),
    ).toEqual(["dash01", "dash06"]);
  });

  it("quotes and defuses a field as Excel reads it", () => {
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField("+81")).toBe("'+81");
    expect(csvField(-5, false)).toBe("-5");
    expect(csvField(null)).toBe("");
  });
});
