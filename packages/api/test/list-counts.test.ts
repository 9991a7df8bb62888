import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { LIST_COUNT_CAP } from "../src/lists/capped-count";
import { RECENT_REPORTS_CAP } from "../src/safety/moderation-queue";
import { type TestUser, useTestApi } from "./helpers";

/** The admin lists' counts stop at LIST_COUNT_CAP (decision 0011): a lower bound, flagged, one more page. */
const api = useTestApi();
let admin: TestUser;
const MORE = LIST_COUNT_CAP + 5;

beforeAll(async () => {
  admin = await api.createUser({ role: "admin" });
  const db = api.database.db;
  await db.execute(sql`
    insert into users (user_id, name, email, password_hash, gender, created_at)
    select 'lc' || lpad(g::text, 5, '0'), '数', 'lc' || g || '@example.com', 'x', 'female', now() - interval '2 hours' + g * interval '1 second'
    from generate_series(1, ${MORE}) g`);
  const members = sql`(select id, substr(user_id, 3)::int as i from users where user_id like 'lc%')`;
  await db.execute(sql`
    insert into inquiries (user_id, title, message, is_read, created_at)
    select m.id, 'お問い合わせ ' || m.i, '本文', m.i > 3, now() - interval '2 hours' + m.i * interval '1 second' from ${members} m`);
  await db.execute(sql`
    insert into admin_audit_log (admin_id, action, target_type, target_id, created_at)
    select ${admin.id}, case when m.i <= 2 then 'bench.rare' else 'bench.common' end, 'user', m.id::text,
           now() - interval '2 hours' + m.i * interval '1 second'
    from ${members} m`);
  await db.execute(sql`
    insert into reports (reporter_id, target_type, target_id, target_user_id, reason)
    select m.id, 'member', ${admin.id}, ${admin.id}, 'business' from ${members} m`);
}, 60_000);

describe("admin list counts", () => {
  it("audit log: capped beyond 1,000 entries, exact for a narrow filter", async () => {
    const c = api.caller(admin);
    const page = await c.adminAudit.list({ limit: 50 });
    expect(page.pagination).toMatchObject({ total: LIST_COUNT_CAP, totalCapped: true });
    expect(page.pagination.totalPages).toBe(Math.ceil((LIST_COUNT_CAP + 1) / 50));
    expect(page.entries).toHaveLength(50);
    const rare = await c.adminAudit.list({ action: "bench.rare" });
    expect(rare.pagination).toMatchObject({ total: 2, totalCapped: false, totalPages: 1 });
    // A page past the cap: the count reaches that page, which still has its rows.
    const deep = await c.adminAudit.list({ limit: 50, page: 21 });
    expect(deep.entries.length).toBeGreaterThan(0);
    expect(deep.pagination.total).toBeGreaterThanOrEqual(LIST_COUNT_CAP);
  });

  it("inquiry desk: the page total and the desk's all / unread totals are capped and flagged", async () => {
    const all = await api.caller(admin).adminInquiries.list({ page: 1, limit: 20 });
    expect(all).toMatchObject({
      total: LIST_COUNT_CAP,
      totalCapped: true,
      totalAll: LIST_COUNT_CAP,
      totalAllCapped: true,
      unread: 3,
      unreadCapped: false,
    });
    expect(all.inquiries[0]?.title).toBe(`お問い合わせ ${MORE}`);
    const unread = await api.caller(admin).adminInquiries.list({ page: 1, limit: 20, unreadOnly: true });
    expect(unread).toMatchObject({ total: 3, totalCapped: false, totalPages: 1 });
  });

  it("moderation queue: open reports capped, handled ones exact", async () => {
    const open = await api.caller(admin).adminModeration.queue({ status: "open" });
    expect(open).toMatchObject({ total: LIST_COUNT_CAP, totalCapped: true });
    expect(open.totalPages).toBeGreaterThan(1);
    // Every seeded report is against the administrator: their recent reports stop at the cap.
    expect(open.reports[0]).toMatchObject({ recentReportsAgainstUser: RECENT_REPORTS_CAP, recentReportsCapped: true });
    const dismissed = await api.caller(admin).adminModeration.queue({ status: "dismissed" });
    expect(dismissed).toMatchObject({ total: 0, totalCapped: false, totalPages: 1 });
  });
});
