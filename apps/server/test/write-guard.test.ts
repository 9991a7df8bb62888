/**
 * The write guard (write-guard.ts) and the property loop (property-bad-input.ts) catch what they
 * claim to: every kind of committed write is named by table, nothing else is, and a refused
 * request that writes fails the property run.
 */
import { type Database, occupations } from "@enmusubi/db";
import { openTestDatabase } from "@enmusubi/db/testing";
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { exercise, type Target } from "./property-bad-input";
import { createWriteGuard } from "./write-guard";

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase(inject("dbTemplate"));
});
afterAll(async () => {
  await database?.close();
});

describe("write guard", () => {
  it("names the table of every kind of committed write, and nothing after reads or a rollback", async () => {
    const guard = await createWriteGuard(database);
    const { db } = database;
    await db.select().from(occupations);
    expect(await guard.changed()).toEqual([]);

    await expect(
      db.transaction(async (tx) => {
        await tx.insert(occupations).values({ name: "rolled back" });
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await guard.changed()).toEqual([]);

    await db.insert(occupations).values({ name: "guard insert" });
    expect(await guard.changed()).toEqual(["occupations"]);
    // An update that writes the values the row already had is still a write.
    await db.update(occupations).set({ sortOrder: sql`${occupations.sortOrder}` });
    expect(await guard.changed()).toEqual(["occupations"]);
    await db.delete(occupations).where(sql`${occupations.name} = 'guard insert'`);
    expect(await guard.changed()).toEqual(["occupations"]);
    // A delete and an insert in one transaction leave the count as it was.
    await db.transaction(async (tx) => {
      const [row] = await tx.select().from(occupations).limit(1);
      await tx.delete(occupations).where(sql`${occupations.id} = ${row?.id}`);
      await tx.insert(occupations).values({ name: "replacement" });
    });
    expect(await guard.changed()).toEqual(["occupations"]);
    expect(await guard.changed()).toEqual([]);
  });

  it("fails a property run when a refused request writes or says why in another language, and only then", async () => {
    const target: Target = { label: "fake route", requests: () => fc.constant({ call: "fake", input: null }) };
    const refusal = JSON.stringify({ message: "入力内容に誤りがあります" });
    const writeAndAnswer = (statusCode: number) => async () => {
      await database.db.update(occupations).set({ sortOrder: sql`${occupations.sortOrder} + 1` });
      return { statusCode, body: statusCode >= 400 ? refusal : "" };
    };
    const refusedWrite = await exercise([target], { database, send: writeAndAnswer(400) }, 3);
    // One failure per caller (anonymous, member, administrator).
    expect(refusedWrite.failures).toHaveLength(3);
    expect(refusedWrite.failures[0]).toMatch(/fake route as anonymous .*refused with 400 yet occupations changed/);

    const acceptedWrite = await exercise([target], { database, send: writeAndAnswer(200) }, 3);
    expect(acceptedWrite.failures).toEqual([]);

    const refusedRead = await exercise(
      [target],
      { database, send: async () => ({ statusCode: 404, body: refusal }) },
      3,
    );
    expect(refusedRead).toMatchObject({ failures: [], refused: 9 });

    // A refusal must say why in Japanese: Fastify's English, or no message at all, fails.
    for (const body of ['{"message":"Not Found"}', ""]) {
      const english = await exercise([target], { database, send: async () => ({ statusCode: 404, body }) }, 3);
      expect(english.failures.join("\n")).toMatch(/fake route as admin .*refused with 404 without Japanese/);
    }
    const inProcess = await exercise(
      [target],
      { database, send: async () => ({ statusCode: 400, body: "BAD_REQUEST", message: "入力が正しくありません" }) },
      3,
    );
    expect(inProcess.failures).toEqual([]);

    const crashed = await exercise([target], { database, send: async () => ({ statusCode: 500, body: "boom" }) }, 3);
    expect(crashed.failures.join("\n")).toMatch(/fake route as member .*500 boom/);
  });
});
