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
            if (!(error instanceof TRPCError) || error.code === "INTERNAL_SERVER_ERROR") {
              failures.push(`${path} as ${user?.role ?? "anonymous"} ${JSON.stringify(input)}: ${String(error)}`);
            }
          }
        }
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
