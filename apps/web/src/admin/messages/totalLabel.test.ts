import { describe, expect, it } from "vitest";
import { totalLabel } from "./types";

describe("totalLabel", () => {
  it("says an exact count, a capped one as a lower bound, and a bounded search", () => {
    expect(totalLabel({ total: 1234, totalCapped: false, searchWindow: null })).toBe("1,234件");
    expect(totalLabel({ total: 10000, totalCapped: true })).toBe("10,000件以上");
    expect(totalLabel({ total: 37, totalCapped: false, searchWindow: 10000 })).toBe(
      "37件（短い・広いキーワードのため最新10,000件から検索）",
    );
  });
});
