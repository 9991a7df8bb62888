import { adminUserUpdateInput, MSG } from "@enmusubi/shared";
import { describe, expect, it } from "vitest";
import { validate } from "./forms";

describe("validate", () => {
  it("answers the server schema's first Japanese message per field", () => {
    const result = validate(adminUserUpdateInput, {
      id: "00000000-0000-4000-8000-000000000000",
      name: " ",
      email: "x@example.jp",
      points: -1,
      sendPoints: 1.5,
      password: "abcdef",
      passwordConfirmation: "abcdeg",
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toMatchObject({
      name: MSG.nameRequired,
      points: MSG.pointsInvalid,
      sendPoints: MSG.pointsInvalid,
    });
  });

  it("reports the password confirmation and passes valid data through", () => {
    const base = {
      id: "00000000-0000-4000-8000-000000000000",
      name: "太郎",
      email: "X@Example.jp",
      points: 1,
      sendPoints: 0,
      expectedPoints: 0,
      expectedSendPoints: 0,
    };
    const mismatch = validate(adminUserUpdateInput, { ...base, password: "abcdef", passwordConfirmation: "zzz" });
    expect(mismatch.ok ? null : mismatch.errors.passwordConfirmation).toBe(MSG.passwordMismatch);
    const ok = validate(adminUserUpdateInput, base);
    expect(ok.ok && ok.data.email).toBe("x@example.jp");
  });
});
