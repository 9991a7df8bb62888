import { TRPCError } from "@trpc/server";
import { beforeAll, describe, expect, it } from "vitest";
import { appRouter } from "../src/root";
import { type TestUser, useTestApi } from "./helpers";

const api = useTestApi();
let admin: TestUser;
let member: TestUser;

beforeAll(async () => {
  admin = await api.createUser({ role: "admin" });
  member = await api.createUser();
});

const INPUTS: unknown[] = [
  undefined,
  null,
  "text",
  [],
  {},
  { id: "x", actionName: "../x", name: 5, email: [], points: -1, data: 1, page: 0, search: { $gt: "" } },
  { id: "00000000-0000-4000-8000-000000000000", userId: "00000000-0000-4000-8000-000000000000", data: "%%%" },
  // A NUL byte and a lone surrogate in every text field: refused as bad input, never a database error.
  ...["a\u0000b", "x\uD800y"].map((bad) => ({
    userID: bad,
    password: bad,
    email: `${bad}@example.jp`,
    name: bad,
    address: bad,
    search: bad,
    label: bad,
    displayName: bad,
    description: bad,
    actionName: "profile_view",
    currentPassword: bad,
    newPassword: `${bad}long-enough`,
    gender: "male",
    data: bad,
  })),
];

describe("no procedure answers INTERNAL_SERVER_ERROR to bad input", () => {
  it("every procedure, as admin, member and anonymous", async () => {
    const paths = Object.keys(appRouter._def.procedures);
    expect(paths.length).toBeGreaterThan(20);
    const failures: string[] = [];
    for (const path of paths) {
      for (const user of [admin, member, null]) {
        const caller = api.caller(user) as unknown as Record<string, unknown>;
        const procedure = path
          .split(".")
          .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], caller) as (
          input: unknown,
        ) => Promise<unknown>;
        for (const input of INPUTS) {
          try {
            await procedure(input);
          } catch (error) {
            const japanese = error instanceof Error && /[\u3040-\u30ff\u4e00-\u9fff]/.test(error.message);
            if (!(error instanceof TRPCError) || error.code === "INTERNAL_SERVER_ERROR" || !japanese) {
              failures.push(`${path} as ${user?.role ?? "anonymous"} ${JSON.stringify(input)}: ${String(error)}`);
            }
          }
        }
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
