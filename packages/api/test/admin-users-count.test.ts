import { adminUserListInput } from "@enmusubi/shared";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { listUsers, USER_COUNT_CAP } from "../src/users/admin-list";
import { type TestUser, useTestApi } from "./helpers";

const api = useTestApi();
let admin: TestUser;
const WOMEN = 60;

beforeAll(async () => {
  admin = await api.createUser({ role: "admin" });
  // Set-based, like the benchmark: newest has the highest number.
  await api.database.db.execute(sql`
    insert into users (user_id, name, email, password_hash, gender, created_at)
    select 'cnt' || lpad(g::text, 3, '0'), '数', 'cnt' || g || '@example.com', 'x', 'female',
           now() - interval '1 hour' + g * interval '1 second'
    from generate_series(1, ${WOMEN}) g`);
  await api.database.db.execute(sql`analyze users`);
}, 60_000);

describe("admin user list total", () => {
  it("is exact up to the cap, both by the tRPC procedure and with a search", async () => {
    const all = await api.caller(admin).adminUsers.list({ pageSize: 10 });
    expect(all.totalEstimated).toBe(false);
    expect(USER_COUNT_CAP).toBeGreaterThan(all.total);
    const women = await api.caller(admin).adminUsers.list({ field: "gender", search: "女性", pageSize: 10 });
    expect(women).toMatchObject({ totalEstimated: false, totalPages: Math.ceil(women.total / 10) });
    expect(women.total).toBeGreaterThanOrEqual(WOMEN);
    // The first page's count rides on its rows; the second page counts on its own: both agree.
    const second = await api.caller(admin).adminUsers.list({ field: "gender", search: "女性", pageSize: 10, page: 2 });
    expect(second.total).toBe(women.total);
    const none = await api.caller(admin).adminUsers.list({ field: "userID", search: "nobody-has-this-id" });
    expect(none).toMatchObject({ users: [], total: 0, totalEstimated: false, totalPages: 1 });
  });

  it("above the cap is the planner's estimate (flagged, never below the counted lower bound) and paging still works", async () => {
    const cap = 20;
    const page1 = await listUsers(
      api.database.db,
      adminUserListInput.parse({ field: "gender", search: "female", pageSize: 10 }),
      { countCap: cap },
    );
    expect(page1.totalEstimated).toBe(true);
    expect(page1.total).toBeGreaterThan(cap);
    // The statistics were just gathered: the estimate is close to the real number of women.
    const result = (await api.database.db.execute(
      sql`select count(*)::int as n from users where deleted_at is null and gender = 'female'`,
    )) as unknown;
    const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<{ n: number }>;
    const exact = rows[0]?.n ?? 0;
    expect(exact).toBeGreaterThanOrEqual(WOMEN);
    expect(page1.total).toBeGreaterThan(exact * 0.5);
    expect(page1.total).toBeLessThan(exact * 2);
    expect(page1.totalPages).toBe(Math.ceil(page1.total / 10));
    expect(page1.users.map((u) => u.userID).slice(0, 3)).toEqual(["cnt060", "cnt059", "cnt058"]);
    // A page past the cap is counted exactly again (the count reaches the page asked for), read
    // from the end when it lies in the second half.
    const page3 = await listUsers(
      api.database.db,
      adminUserListInput.parse({ field: "gender", search: "female", pageSize: 10, page: 3 }),
      { countCap: cap },
    );
    expect(page3.users.map((u) => u.userID)[0]).toBe("cnt040");
    const last = await listUsers(
      api.database.db,
      adminUserListInput.parse({ field: "gender", search: "女", pageSize: 25, page: 3 }),
      { countCap: cap },
    );
    expect(last.totalEstimated).toBe(false);
    expect(last.total).toBe(exact);
  });
});
