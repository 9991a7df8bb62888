import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { SEARCH_COUNT_CAP } from "../src/members/search";
import { type TestUser, useTestApi } from "./helpers";

const api = useTestApi();
let searcher: TestUser;

beforeAll(async () => {
  searcher = await api.createUser({ gender: "male" });
  // More women than the count goes to, and a few named for a keyword.
  await api.database.db.execute(sql`
    insert into users (user_id, name, email, password_hash, gender, verification_status)
    select 'capw' || g, case when g <= 3 then '数える花子' else '会員' end, 'capw' || g || '@example.com', 'x', 'female', 'verified'
    from generate_series(1, ${SEARCH_COUNT_CAP + 25}) g`);
}, 60_000);

describe("profile search count", () => {
  it("stops at the cap on a broad search (a lower bound, one more page), exact on a narrow one", async () => {
    const broad = await api.caller(searcher).members.search({ limit: 20 });
    expect(broad).toMatchObject({ total: SEARCH_COUNT_CAP, totalCapped: true });
    expect(broad.totalPages).toBe(Math.ceil((SEARCH_COUNT_CAP + 1) / 20));
    expect(broad.profiles).toHaveLength(20);
    // Past the cap the count reaches one page beyond the one asked for.
    const deep = await api.caller(searcher).members.search({ limit: 20, page: 52 });
    expect(deep.profiles.length).toBeGreaterThan(0);
    expect(deep).toMatchObject({ totalCapped: false, total: SEARCH_COUNT_CAP + 25 });
    const narrow = await api.caller(searcher).members.search({ keyword: "数える" });
    expect(narrow).toMatchObject({ total: 3, totalCapped: false, totalPages: 1 });
    // The count rides on the page's rows; a page past the last match still says how many there are.
    const past = await api.caller(searcher).members.search({ keyword: "数える", page: 2 });
    expect(past).toMatchObject({ profiles: [], total: 3, totalCapped: false, totalPages: 1 });
    const pastBroad = await api.caller(searcher).members.search({ limit: 20, page: 60 });
    expect(pastBroad).toMatchObject({ profiles: [], total: SEARCH_COUNT_CAP + 25, totalCapped: false });
  });
});
