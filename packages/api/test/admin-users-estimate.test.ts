import { rowsOf, users } from "@enmusubi/db";
import { isNull, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { plannedRows, USER_COUNT_CAP } from "../src/users/admin-list";
import { type TestUser, useTestApi } from "./helpers";

/**
 * The whole list past USER_COUNT_CAP: its first page carries the planner's estimate in the same
 * statement as its rows and capped count (planned_rows, migration 0038), and it is the estimate
 * the separate EXPLAIN gives (decision 0037).
 */

const api = useTestApi();
let admin: TestUser;

beforeAll(async () => {
  admin = await api.createUser({ role: "admin" });
  await api.database.db.execute(sql`
    insert into users (user_id, email, password_hash, gender)
    select 'est' || lpad(g::text, 5, '0'), 'est' || g || '@example.com', 'x', 'male'
    from generate_series(1, ${USER_COUNT_CAP + 50}) g`);
  await api.database.db.execute(sql`analyze users`);
}, 120_000);

describe("the whole admin user list above the count's cap", () => {
  it("answers the planner's estimate, flagged, from its first page's one statement", async () => {
    const [live] = await rowsOf<{ n: number }>(
      api.database.db,
      sql`select count(*)::int as n from ${users} where ${isNull(users.deletedAt)}`,
    );
    const exact = live?.n ?? 0;
    expect(exact).toBeGreaterThan(USER_COUNT_CAP);
    const planned = await plannedRows(api.database.db, sql`select 1 from ${users} where ${isNull(users.deletedAt)}`);

    const page = await api.caller(admin).adminUsers.list({ pageSize: 50 });
    expect(page).toMatchObject({ totalEstimated: true, allUsersEstimated: true, totalCapped: false });
    expect(page.total).toBe(Math.max(USER_COUNT_CAP + 1, planned));
    expect(page.allUsers).toBe(page.total);
    expect(page.total).toBeGreaterThan(exact * 0.5);
    expect(page.total).toBeLessThan(exact * 2);
    expect(page.totalPages).toBe(Math.ceil(page.total / 50));
    expect(page.users).toHaveLength(50);
  });

  it("planned_rows is EXPLAIN's row estimate", async () => {
    const text = "select 1 from users where deleted_at is null and gender = 'male'";
    const [row] = await rowsOf<{ n: string | number }>(api.database.db, sql`select planned_rows(${text}) as n`);
    expect(Number(row?.n)).toBe(await plannedRows(api.database.db, sql.raw(text)));
  });
});
