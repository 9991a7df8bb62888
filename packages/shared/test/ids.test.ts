import { describe, expect, it } from "vitest";
import { isUuid, MSG, uuid } from "../src/index";

describe("uuid / isUuid: the one id check", () => {
  const samples = [
    "00000000-0000-4000-8000-000000000000",
    "3F6C6A4E-1B2D-4C9E-8A7F-0D1E2F3A4B5C",
    "3f6c6a4e-1b2d-4c9e-8a7f-0d1e2f3a4b5c",
    "3f6c6a4e1b2d4c9e8a7f0d1e2f3a4b5c",
    "{3f6c6a4e-1b2d-4c9e-8a7f-0d1e2f3a4b5c}",
    " 3f6c6a4e-1b2d-4c9e-8a7f-0d1e2f3a4b5c",
    "3f6c6a4e-1b2d-4c9e-8a7f-0d1e2f3a4b5",
    "3f6c6a4e-1b2d-4c9e-8a7f-0d1e2f3a4b5g",
    "demo01",
    "",
    "' or 1=1 --",
  ];

  it("the schema and the predicate accept the same strings", () => {
    for (const s of samples) expect(isUuid(s), s).toBe(uuid().safeParse(s).success);
    expect(samples.filter(isUuid)).toEqual(samples.slice(0, 3));
  });

  it("answers with the route's message (見つかりません unless told)", () => {
    expect(uuid().safeParse("demo01").error?.issues[0]?.message).toBe(MSG.notFound);
    expect(uuid(MSG.recipientUnavailable).safeParse(12).error?.issues[0]?.message).toBe(MSG.recipientUnavailable);
  });
});
