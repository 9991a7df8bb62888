import { describe, expect, it } from "vitest";
import { describeAction, describeDetails } from "./describe";

describe("audit details as written", () => {
  it("shows before → after per field, then the other fields", () => {
    expect(
      describeDetails({ before: { points: 100, name: "旧" }, after: { points: 150, name: "新" }, reason: "調整" }),
    ).toEqual(["points: 100 → 150", "name: 旧 → 新", "reason: 調整"]);
  });

  it("a field only on one side reads なし on the other; plain values are shown as they are", () => {
    expect(describeDetails({ before: { photoLink: null }, after: { photoLink: "/a.jpg" } })).toEqual([
      "photoLink: なし → /a.jpg",
    ]);
    expect(describeDetails({ before: 1, after: 2 })).toEqual(["1 → 2"]);
    expect(describeDetails({ ids: ["a", "b"] })).toEqual(['ids: ["a","b"]']);
    expect(describeDetails({})).toEqual(["—"]);
  });

  it("names known actions in Japanese and leaves unknown ones as written", () => {
    expect(describeAction("inquiry.reply")).toBe("お問い合わせ返信");
    expect(describeAction("something.new")).toBe("something.new");
  });
});
