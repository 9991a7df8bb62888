import { describe, expect, it } from "vitest";
import { likeEscape } from "../src/lists/like";
import { pagesFor } from "../src/lists/pages";
import { useTestApi } from "./helpers";

/** The list rules of packages/api/src/lists, one module each (decision 0023), and the lists that use them. */
const api = useTestApi();

describe("pagesFor", () => {
  it("an empty list has one page; a full last page adds none; a capped total offers one more", () => {
    expect(pagesFor(0, false, 20)).toBe(1);
    expect(pagesFor(1, false, 20)).toBe(1);
    expect(pagesFor(20, false, 20)).toBe(1);
    expect(pagesFor(21, false, 20)).toBe(2);
    expect(pagesFor(1000, true, 20)).toBe(51);
    for (let total = 0; total <= 200; total += 1) {
      for (const size of [1, 7, 20, 50]) {
        const pages = pagesFor(total, false, size);
        // Every row is on a page, the last page is not empty unless the list is.
        expect((pages - 1) * size < Math.max(total, 1) && pages * size >= total, `${total}/${size}`).toBe(true);
      }
    }
  });

  it("an empty search answers page 1 of 1 in every list that uses it", async () => {
    const admin = await api.createUser({ role: "admin" });
    const member = await api.createUser({ gender: "male" });
    const none = "該当しない名前のはずの検索語";
    const search = await api.caller(member).members.search({ keyword: none });
    expect([search.total, search.totalPages]).toEqual([0, 1]);
    const audit = await api.caller(admin).adminAudit.list({ action: none });
    expect([audit.pagination.total, audit.pagination.totalPages]).toEqual([0, 1]);
    const queue = await api.caller(admin).adminVerification.queue({});
    expect([queue.total, queue.totalPages]).toEqual([0, 1]);
    const mine = await api.caller(member).inquiries.list();
    expect([mine.total, mine.totalPages]).toEqual([0, 1]);
  });
});

describe("likeEscape", () => {
  it("makes %, _ and \\ stand for themselves", () => {
    expect(likeEscape("100%_a\\b")).toBe("100\\%\\_a\\\\b");
    expect(likeEscape("佐藤")).toBe("佐藤");
  });
});
