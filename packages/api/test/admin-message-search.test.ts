import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { SEARCH_WINDOW } from "../src/messages/admin-search";
import { ADMIN_COUNT_CAP } from "../src/messages/admin-service";
import { SEARCH_MAX_ACCOUNTS } from "../src/search/grams";
import { type TestUser, useTestApi } from "./helpers";

const api = useTestApi();
let admin: TestUser;
let alice: TestUser;
let bob: TestUser;

/** `n` messages from `from` to `to`, one a second, the newest `newestSecondsAgo` seconds ago. */
async function seed(from: TestUser, to: TestUser, n: number, body: string, newestSecondsAgo: number) {
  await api.database.db.execute(sql`
    insert into messages (from_user_id, to_user_id, body, created_at)
    select ${from.id}::uuid, ${to.id}::uuid, ${body} || ' ' || g, now() - make_interval(secs => ${newestSecondsAgo} + g)
    from generate_series(1, ${n}) g`);
}

beforeAll(async () => {
  admin = await api.createUser({ role: "admin", name: "運営" });
  alice = await api.createUser({ name: "検索アリス", userID: "searchalice" });
  bob = await api.createUser({ name: "検索ボブ", gender: "female", userID: "searchbob" });
  // Old messages, beyond the newest SEARCH_WINDOW: one carries rare words.
  await seed(alice, bob, 1, "ゑゐ古い合言葉ひとつ", 10 * SEARCH_WINDOW);
  await seed(alice, bob, SEARCH_WINDOW + 10, "埋め草", 1000);
  // A recent one with the same short word.
  await seed(bob, alice, 1, "新しいゑゐ", 10);
}, 120_000);

const list = (input: Record<string, unknown>) => api.caller(admin).adminMessages.list({ limit: 50, ...input });

describe("admin message search at scale", () => {
  it("a keyword of 3 characters or more searches every message through the indexes", async () => {
    const found = await list({ search: "古い合言葉" });
    expect(found.messages.map((m) => m.body)).toEqual(["ゑゐ古い合言葉ひとつ 1"]);
    expect(found).toMatchObject({ total: 1, totalCapped: false, searchWindow: null });
    // A sender's or recipient's userID or name, both directions.
    const byUser = await list({ search: "searchbob", dateFrom: "2000-01-01" });
    expect(byUser.searchWindow).toBeNull();
    expect(byUser.total).toBe(ADMIN_COUNT_CAP);
    expect(byUser.totalCapped).toBe(true);
    expect(byUser.messages[0]?.body).toBe("新しいゑゐ 1");
  });

  it("a shorter keyword searches the newest SEARCH_WINDOW messages only, and says so", async () => {
    const short = await list({ search: "ゑゐ" });
    expect(short.searchWindow).toBe(SEARCH_WINDOW);
    expect(short.messages.map((m) => m.body)).toEqual(["新しいゑゐ 1"]);
  });

  it("a keyword matching more than SEARCH_MAX_ACCOUNTS accounts is bounded the same way", async () => {
    const many = Array.from({ length: SEARCH_MAX_ACCOUNTS + 1 }, (_, i) => i);
    await api.database.db.execute(sql`
      insert into users (user_id, name, email, password_hash)
      select 'crowd' || g, '群衆', 'crowd' || g || '@example.com', 'x' from unnest(${sql.raw(`array[${many.join(",")}]`)}) g`);
    const crowd = await list({ search: "crowd" });
    expect(crowd.searchWindow).toBe(SEARCH_WINDOW);
    expect(crowd.messages).toEqual([]);
  });

  it("the count stops at the cap: a lower bound, one more page to go to", async () => {
    const all = await list({});
    expect(all.totalCapped).toBe(true);
    expect(all.total).toBe(ADMIN_COUNT_CAP);
    expect(all.totalPages).toBe(Math.ceil((ADMIN_COUNT_CAP + 1) / 50));
    // Beyond the cap the count reaches past the page shown, so the pager goes on.
    const deep = await list({ page: 201 });
    expect(deep.messages.length).toBeGreaterThan(0);
    expect(deep.totalCapped).toBe(false);
    expect(deep.total).toBeGreaterThan(ADMIN_COUNT_CAP);
    // A narrow filter is counted exactly.
    const one = await list({ search: "古い合言葉" });
    expect(one).toMatchObject({ total: 1, totalCapped: false, totalPages: 1 });
  });
});
