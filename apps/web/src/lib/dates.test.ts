import { describe, expect, it } from "vitest";
import { parseTypedDate } from "./dates";

describe("parseTypedDate", () => {
  it("reads the ways a Japanese member types a birthday, as YYYY-MM-DD", () => {
    for (const typed of [
      "1995年4月1日",
      "1995-04-01",
      "1995/4/1",
      "1995.4.1",
      "19950401",
      "１９９５／０４／０１",
      " 1995 年 4 月 1 日 ",
    ]) {
      expect(parseTypedDate(typed), typed).toBe("1995-04-01");
    }
  });

  it("takes the days the server takes (the shared day check): 29 February of leap years, 1900–2999", () => {
    expect(parseTypedDate("2024/2/29")).toBe("2024-02-29");
    expect(parseTypedDate("1900年1月1日")).toBe("1900-01-01");
    expect(parseTypedDate("1899/12/31")).toBeNull();
    expect(parseTypedDate("3000-01-01")).toBeNull();
  });

  it("refuses what is not (yet) a real date", () => {
    for (const typed of [
      "",
      "1995",
      "1995年4月",
      "1995-02-30",
      "1995-13-01",
      "abc",
      "95/4/1",
      "2025-02-31",
      "2023/2/29",
    ]) {
      expect(parseTypedDate(typed), typed).toBeNull();
    }
  });
});
