import { rowsOf } from "@enmusubi/db";
import { MSG } from "@enmusubi/shared";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { type RestUser, snapshotTables, useTestServer } from "./helpers";

const server = useTestServer();
let admin: RestUser;
let member: RestUser;
/** More than one export page (1,000 members), so the CSV is streamed in several reads. */
const BULK = 1005;

beforeAll(async () => {
  admin = await server.createUser({ role: "admin" });
  member = await server.createUser();
  const db = server.database.db;
  await db.execute(sql`
    insert into users (user_id, name, email, password_hash, gender, created_at) values
      ('rsato1', '佐藤花子', 'hanako.sato@example.com', 'x', 'female', now() - interval '1 minute'),
      ('rsuzuki', '鈴木一郎', 'ichiro@sample.jp', 'x', 'male', now() - interval '2 minutes')`);
  await db.execute(sql`
    insert into users (user_id, name, email, password_hash, gender, created_at)
    select 'bulk' || lpad(g::text, 4, '0'), '一括' || g, 'bulk' || g || '@bulk.example', 'x', 'male',
           now() - interval '1 day' + g * interval '1 second'
    from generate_series(1, ${BULK}) g`);
  await db.execute(sql`analyze users`);
}, 60_000);

describe("GET /api/admin/dashboard", () => {
  it("answers the figures to an administrator, as documented", async () => {
    const res = await server.request({ method: "GET", url: "/api/admin/dashboard", as: admin });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.members.total.value).toBeGreaterThanOrEqual(BULK + 3);
    expect(body.members.newThisWeek).toBeGreaterThanOrEqual(BULK + 3);
    expect(body.signups).toHaveLength(30);
    expect(body.sales).toHaveLength(30);
    expect(Object.keys(body.waiting).sort()).toEqual([
      "failedScheduled",
      "held",
      "inquiries",
      "notificationsOpen",
      "payments",
      "pendingTransfers",
      "profileReviews",
      "reports",
      "verifications",
    ]);
  });

  it("refuses members (403) and the anonymous (401)", async () => {
    const asMember = await server.request({ method: "GET", url: "/api/admin/dashboard", as: member });
    expect(asMember.statusCode).toBe(403);
    expect(asMember.json().message).toBe(MSG.forbidden);
    const anonymous = await server.request({ method: "GET", url: "/api/admin/dashboard" });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe("GET /api/admin/users?q=", () => {
  it("finds by name, part of an e-mail address and user ID, keeping the legacy shape and X-Total-Count", async () => {
    const byName = await server.request({
      method: "GET",
      url: `/api/admin/users?q=${encodeURIComponent("佐藤")}`,
      as: admin,
    });
    expect(byName.statusCode).toBe(200);
    expect(byName.json().map((u: { userID: string }) => u.userID)).toEqual(["rsato1"]);
    expect(byName.headers["x-total-count"]).toBe("1");
    const byMail = await server.request({ method: "GET", url: "/api/admin/users?q=sample.jp", as: admin });
    expect(byMail.json().map((u: { userID: string }) => u.userID)).toEqual(["rsuzuki"]);
    const byId = await server.request({ method: "GET", url: "/api/admin/users?q=RSUZ", as: admin });
    expect(byId.json().map((u: { userID: string }) => u.userID)).toEqual(["rsuzuki"]);
    // With a gender filter too.
    const none = await server.request({
      method: "GET",
      url: `/api/admin/users?q=${encodeURIComponent("佐藤")}&field=gender&search=male`,
      as: admin,
    });
    expect(none.json()).toEqual([]);
    expect(none.headers["x-total-count"]).toBe("0");
  });

  it("refuses a keyword over 100 characters with 400 and the catalogue's message", async () => {
    const res = await server.request({ method: "GET", url: `/api/admin/users?q=${"a".repeat(101)}`, as: admin });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(MSG.userSearchTooLong);
  });
});

describe("GET /api/admin/users.csv", () => {
  it("streams every filtered member as CSV with a BOM, across pages, and audits the export", async () => {
    const res = await server.request({ method: "GET", url: "/api/admin/users.csv?q=bulk.example", as: admin });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toMatch(/^attachment; filename="members-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const lines = res.body.slice(1).split("\r\n");
    expect(lines[0]).toBe(
      "ユーザーID,名前,メールアドレス,性別,生年月日,住所,職業,年収,ポイント,送信ポイント,年齢確認,利用停止,権限,登録日時",
    );
    expect(lines.at(-1)).toBe("");
    const ids = lines.slice(1, -1).map((l) => l.split(",")[0]);
    expect(ids).toHaveLength(BULK);
    expect(new Set(ids).size).toBe(BULK);
    expect(ids[0]).toBe(`bulk${BULK}`);
    expect(ids.at(-1)).toBe("bulk0001");
    expect(res.body).not.toContain("password");
    const audit = await rowsOf<{ details: { q: string } }>(
      server.database.db,
      sql`select details from admin_audit_log where action = 'user.export' order by created_at desc limit 1`,
    );
    expect(audit[0]?.details.q).toBe("bulk.example");
  });

  it("guards every cell a spreadsheet could read as a formula and keeps one member per line", async () => {
    const names = [
      '\u200B=HYPERLINK("http://x")',
      "\u200D+1",
      "\u2060@SUM(A1)",
      "＝1+1",
      "－2+3",
      "＋81",
      "＠x",
      "佐藤\n=cmd|' /C calc'!A0",
      "鈴木\r\n+1",
      "田中\u2028@x",
    ];
    const db = server.database.db;
    for (const [i, name] of names.entries()) {
      await db.execute(sql`
        insert into users (user_id, name, email, password_hash, gender, address, created_at)
        values (${`guard${i}`}, ${name}, ${`guard${i}@guard.example`}, 'x', 'female', ${"\u200C=1"},
                now() - ${i} * interval '1 second')`);
    }
    const res = await server.request({ method: "GET", url: "/api/admin/users.csv?q=guard.example", as: admin });
    expect(res.statusCode).toBe(200);
    const lines = res.body.slice(1).split("\r\n").slice(1, -1);
    expect(lines).toHaveLength(names.length);
    const cells = lines.map((line) => line.split(","));
    expect(cells.map((c) => c[0])).toEqual(names.map((_, i) => `guard${i}`));
    // Every name and address cell starts with the apostrophe (after a quote when quoted), or is the
    // name with its line break made a space; no line of the file starts with anything but a user ID.
    expect(cells.map((c) => c[1])).toEqual([
      `"'\u200B=HYPERLINK(""http://x"")"`,
      "'\u200D+1",
      "'\u2060@SUM(A1)",
      "'＝1+1",
      "'－2+3",
      "'＋81",
      "'＠x",
      "佐藤 =cmd|' /C calc'!A0",
      "鈴木 +1",
      "田中 @x",
    ]);
    for (const c of cells) expect(c[5]).toBe("'\u200C=1");
    const physicalLines = res.body.slice(1).split(/\r\n|[\n\r\u2028\u2029]/);
    const starters = ["=", "+", "-", "@", "＝", "＋", "－", "＠", "\u200B", "\u200D", "\uFEFF", "\u2060"];
    expect(physicalLines.filter((l) => starters.some((c) => l.startsWith(c)))).toEqual([]);
  });

  it("refuses members without writing anything", async () => {
    const before = await snapshotTables(server, "admin_audit_log");
    const res = await server.request({ method: "GET", url: "/api/admin/users.csv", as: member });
    expect(res.statusCode).toBe(403);
    expect(await snapshotTables(server, "admin_audit_log")).toEqual(before);
  });
});
