import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { footprints, messages, pointCosts, pointLedger, prepaidActions, profileViews, users } from "@enmusubi/db";
import { onPostgres } from "@enmusubi/db/testing";
import { insufficientPoints, OFFERED_ACTIONS, POINT_COST_TABLE } from "@enmusubi/shared";
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createContextInner } from "../src/context";
import { payForAction } from "../src/points/charge";
import { paidProcedure } from "../src/points/paid-procedure";
import { prepayAction } from "../src/points/prepaid";
import { appRouter } from "../src/root";
import { createCallerFactory, router } from "../src/trpc";
import { snapshotTables, type TestUser, useTestApi } from "./helpers";

const api = useTestApi();
const LEDGER_TABLES = [
  "users",
  "point_ledger",
  "prepaid_actions",
  "profile_views",
  "profile_photo_views",
  "footprints",
  "messages",
];

/** A stored photo's link (the file itself is not needed to sign it). */
const storedPhoto = () => `/uploads/photos/${randomBytes(16).toString("hex")}.jpg`;

/**
 * Every paid procedure, with a call that succeeds and one whose action fails after validation.
 * A procedure built with paidProcedure and missing here fails the first test: each new paid action
 * brings its own row (docs/decisions/0001-paid-actions.md).
 */
interface PaidCase {
  action: string;
  /** Sets up what the call needs; answers the call's input. */
  arrange(payer: TestUser): Promise<unknown>;
  /** An input with which the action itself fails (the charge must not stay). */
  failing(payer: TestUser): Promise<unknown>;
}

const CASES: Record<string, PaidCase> = {
  "messages.send": {
    action: "send_message",
    arrange: async () => ({ recipientIds: [(await api.createUser({ gender: "female" })).id], body: "こんにちは" }),
    // A reply to a message that does not exist: refused after the wrapper opened the transaction.
    failing: async () => ({
      recipientIds: [(await api.createUser()).id],
      body: "返信です",
      replyToId: "00000000-0000-4000-8000-000000000000",
    }),
  },
  "members.viewProfile": {
    action: "profile_view",
    arrange: async () => ({ id: (await api.createUser({ gender: "female" })).id }),
    // An administrator's profile is not a member's: NOT_FOUND after the wrapper opened the transaction.
    failing: async () => ({ id: (await api.createUser({ role: "admin" })).id }),
  },
  "messages.open": {
    action: "unread_mail_view",
    // Another member's message the payer has not opened (unread-mail.test.ts has the free cases).
    arrange: async (payer) => {
      const from = await api.createUser({ gender: "female" });
      const [row] = await api.database.db
        .insert(messages)
        .values({ fromUserId: from.id, toUserId: payer.id, body: "はじめまして" })
        .returning({ id: messages.id });
      return { id: row?.id };
    },
    // As board.enter: the message is opened, then the charge finds no account; both roll back.
    failing: async (payer) => {
      const input = await CASES["messages.open"]?.arrange(payer);
      await api.database.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, payer.id));
      return input;
    },
  },
  "members.viewPhoto": {
    action: "profile_photo_view",
    arrange: async () => ({ id: (await api.createUser({ gender: "female", photoLink: storedPhoto() })).id }),
    // An administrator's photo is not a member's: NOT_FOUND after the wrapper opened the transaction.
    failing: async () => ({ id: (await api.createUser({ role: "admin", photoLink: storedPhoto() })).id }),
  },
  "board.enter": {
    action: "message_board_view",
    arrange: async () => undefined,
    // The member left meanwhile: the window is claimed, then the charge finds no account; both roll back.
    failing: async (payer) => {
      await api.database.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, payer.id));
      return undefined;
    },
  },
  "board.create": {
    action: "message_board_post",
    arrange: async () => ({ title: "はじめまして", content: "よろしくお願いします" }),
    // As above: the post is written, then the charge finds no account; both roll back.
    failing: async (payer) => {
      await api.database.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, payer.id));
      return { title: "はじめまして", content: "よろしくお願いします" };
    },
  },
};

function paidProcedures(): Array<[path: string, action: string]> {
  return Object.entries(appRouter._def.procedures).flatMap(([path, procedure]) => {
    const action = (procedure as unknown as { _def: { meta?: { paidAction?: string } } })._def.meta?.paidAction;
    return action ? [[path, action] as [string, string]] : [];
  });
}

function call(user: TestUser, path: string, input: unknown): Promise<unknown> {
  const caller = api.caller(user) as unknown as Record<string, Record<string, (i: unknown) => Promise<unknown>>>;
  const [group, name] = path.split(".") as [string, string];
  return (caller[group] as Record<string, (i: unknown) => Promise<unknown>>)[name]?.(input) as Promise<unknown>;
}

async function ledgerRows(userId: string) {
  return api.database.db.select().from(pointLedger).where(eq(pointLedger.userId, userId));
}

async function cost(action: string) {
  const [row] = await api.database.db.select().from(pointCosts).where(eq(pointCosts.actionName, action));
  return row?.pointCost ?? Number.NaN;
}

/**
 * Every charging entry point in the code, by file: who calls the charging pair (`payForAction`,
 * points/charge.ts: one action; `chargeBatch`, points/batch.ts: many) or the charge itself
 * (`chargeAction`, inside the pair only). A new way to take points fails the test below until it is
 * listed here, with its own test (docs/decisions/0020).
 */
const CHARGING_CALLERS: Record<string, string[]> = {
  // The single door itself.
  "packages/api/src/points/charge.ts": ["chargeAction"],
  // A member holding prepaid units inside a batch: charged one at a time (point-lots, scheduled-batch tests).
  "packages/api/src/points/batch.ts": ["chargeAction"],
  // Every paid procedure (the router walk and CASES above): members.viewProfile, messages.send,
  // messages.open (unread_mail_view, unread-mail.test.ts), board.enter, board.create.
  "packages/api/src/points/paid-procedure.ts": ["payForAction"],
  // board.list: a prepaid message_board_view credit opens the entry window (board.test.ts).
  "packages/api/src/board/access.ts": ["payForAction"],
  // A scheduled member send, one entry at a time, as messages.send (scheduled tests).
  "packages/api/src/scheduled/send.ts": ["payForAction"],
  // The batch entry point: the dispatcher's set-based member sends (scheduled-batch.test.ts).
  "packages/api/src/scheduled/dispatch.ts": ["chargeBatch"],
};

const ROOT = path.resolve(import.meta.dirname, "../../..");

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name))
    .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)));
}

/** Per file of the shipped code (and scripts), the charging functions it calls. */
function chargingCallers(): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  for (const file of ["packages/api/src", "apps/server/src", "scripts"].flatMap(sourceFiles)) {
    const text = readFileSync(path.join(ROOT, file), "utf8");
    const calls = new Set<string>();
    for (const match of text.matchAll(/(?<!function )\b(payForAction|chargeBatch|chargeAction)(?:<[^>]*>)?\(/g)) {
      calls.add(match[1] as string);
    }
    if (calls.size > 0) found[file] = [...calls].sort();
  }
  return found;
}

describe("paid procedures", () => {
  it("every paid procedure has a case here, and declares the action it charges", () => {
    const found = paidProcedures();
    expect(found.length).toBeGreaterThan(0);
    expect(Object.fromEntries(found)).toEqual(Object.fromEntries(Object.entries(CASES).map(([p, c]) => [p, c.action])));
  });

  it("every charging entry point, single and batch, is listed: the paid procedures and the callers of the pair", () => {
    expect(chargingCallers()).toEqual(CHARGING_CALLERS);
    // Only the pair writes a charge's ledger row; only the legacy prepayment writes a prepaid one.
    const charges = ["packages/api/src", "apps/server/src", "scripts"].flatMap(sourceFiles).filter((file) => {
      const text = readFileSync(path.join(ROOT, file), "utf8");
      return /kind: "(charge|prepaid_charge)"/.test(text);
    });
    expect(charges.sort()).toEqual([
      "packages/api/src/points/batch.ts",
      "packages/api/src/points/charge.ts",
      "packages/api/src/points/prepaid.ts",
    ]);
  });

  it("every price members are shown is charged, and no other action is (decision 0026)", () => {
    // The actions the charging entry points name: the paid procedures' declared ones, and the
    // literal action names in the other callers of the pair (the board entry, the scheduled sends).
    const names = new Set(POINT_COST_TABLE.map((row) => row.actionName));
    const charged = new Set(paidProcedures().map(([, action]) => action));
    for (const file of Object.keys(CHARGING_CALLERS).filter((f) => !f.startsWith("packages/api/src/points/"))) {
      for (const [, literal] of readFileSync(path.join(ROOT, file), "utf8").matchAll(/"([a-z_]+)"/g)) {
        if (names.has(literal as string)) charged.add(literal as string);
      }
    }
    // 既読メール閲覧 (0 pt) is the "re-reading is free" line beside the charged first read: listed
    // exactly when 未読メール閲覧 is charged, and charged by nothing itself (decision 0027).
    if (charged.has("unread_mail_view")) charged.add("read_mail_view");
    expect([...charged].sort()).toEqual([...OFFERED_ACTIONS].sort());
  });

  for (const [path, paid] of Object.entries(CASES)) {
    describe(path, () => {
      it("charges the current cost exactly once, in one ledger row, with the action", async () => {
        const payer = await api.createUser({ points: 100 });
        const price = await cost(paid.action);
        const before = (await ledgerRows(payer.id)).length;
        await call(payer, path, await paid.arrange(payer));
        const rows = await ledgerRows(payer.id);
        expect(rows).toHaveLength(before + 1);
        expect(rows.find((r) => r.kind === "charge")).toMatchObject({ delta: -price, actionName: paid.action });
        const [user] = await api.database.db.select().from(users).where(eq(users.id, payer.id));
        expect(user?.points).toBe(100 - price);
      });

      it("refuses with 402 and the catalogue's message when points are short, and nothing happens", async () => {
        const payer = await api.createUser({ points: 1 });
        const input = await paid.arrange(payer);
        const price = await cost(paid.action);
        const before = await snapshotTables(api, ...LEDGER_TABLES);
        await expect(call(payer, path, input)).rejects.toMatchObject({
          code: "PAYMENT_REQUIRED",
          message: insufficientPoints(price, 1),
        });
        expect(await snapshotTables(api, ...LEDGER_TABLES)).toEqual(before);
      });

      it("charges nothing when the action fails", async () => {
        const payer = await api.createUser({ points: 100 });
        const input = await paid.failing(payer);
        const before = await snapshotTables(api, ...LEDGER_TABLES);
        await expect(call(payer, path, input)).rejects.toBeDefined();
        expect(await snapshotTables(api, ...LEDGER_TABLES)).toEqual(before);
      });

      it("consumes a prepaid credit from deduct-points instead of charging again", async () => {
        const payer = await api.createUser({ points: 100 });
        const price = await cost(paid.action);
        await prepayAction(api.database.db, { userId: payer.id, actionName: paid.action });
        const input = await paid.arrange(payer);
        const before = (await ledgerRows(payer.id)).length;
        await call(payer, path, input);
        expect(await ledgerRows(payer.id)).toHaveLength(before);
        const [user] = await api.database.db.select().from(users).where(eq(users.id, payer.id));
        expect(user?.points).toBe(100 - price);
        const [credit] = await api.database.db.select().from(prepaidActions).where(eq(prepaidActions.userId, payer.id));
        expect(credit?.remaining).toBe(0);
      });
    });
  }

  it("is refused to administrators and anonymous callers", async () => {
    const admin = await api.createUser({ role: "admin" });
    const target = await api.createUser();
    await expect(api.caller(admin).members.viewProfile({ id: target.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(api.caller().members.viewProfile({ id: target.id })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});

/** Never called: the type check proves a paid action is named from the shared cost table. */
export function misspelledActionsDoNotCompile() {
  // @ts-expect-error "profile_veiw" is not a name of POINT_COST_TABLE
  paidProcedure("profile_veiw");
  // @ts-expect-error likewise for the single half of the charging pair
  payForAction(null as never, { userId: "", action: "send_mesage" }, async () => undefined);
}

describe("the paid-procedure wrapper", () => {
  const testRouter = router({
    forgets: paidProcedure("profile_view").mutation(() => "done"),
    twice: paidProcedure("profile_view").mutation(async ({ ctx }) => {
      await ctx.charge();
      await ctx.charge();
    }),
    writesThenFails: paidProcedure("profile_view")
      .input(z.object({ name: z.string() }))
      .mutation(async ({ ctx, input }) => {
        await ctx.charge();
        await ctx.db.update(users).set({ name: input.name }).where(eq(users.id, ctx.session.id));
        throw new Error("boom");
      }),
    batch: paidProcedure("send_message")
      .input(z.object({ count: z.number() }))
      .mutation(({ ctx, input }) => ctx.charge({ quantity: input.count })),
  });
  const callerFor = (user: TestUser) =>
    createCallerFactory(testRouter)(createContextInner(api.deps, user.session, "127.0.0.1"));

  it("fails, and rolls back, a procedure that returns without charging or charges twice", async () => {
    const payer = await api.createUser({ points: 100 });
    const before = await snapshotTables(api, ...LEDGER_TABLES);
    await expect(callerFor(payer).forgets()).rejects.toMatchObject({ code: "INTERNAL_SERVER_ERROR" });
    await expect(callerFor(payer).twice()).rejects.toMatchObject({ code: "INTERNAL_SERVER_ERROR" });
    expect(await snapshotTables(api, ...LEDGER_TABLES)).toEqual(before);
  });

  it("rolls back the charge and the action's own writes together when the handler throws", async () => {
    const payer = await api.createUser({ points: 100, name: "元の名前" });
    const before = await snapshotTables(api, ...LEDGER_TABLES);
    await expect(callerFor(payer).writesThenFails({ name: "変わった" })).rejects.toBeDefined();
    expect(await snapshotTables(api, ...LEDGER_TABLES)).toEqual(before);
  });

  it("charges a batch as cost × count in one step, all or nothing", async () => {
    const price = await cost("send_message");
    const payer = await api.createUser({ points: price * 3 });
    const before = await snapshotTables(api, ...LEDGER_TABLES);
    await expect(callerFor(payer).batch({ count: 4 })).rejects.toMatchObject({
      code: "PAYMENT_REQUIRED",
      message: `ポイントが不足しています。必要ポイント: ${price * 4}pt 所持ポイント: ${price * 3}pt`,
    });
    expect(await snapshotTables(api, ...LEDGER_TABLES)).toEqual(before);
    await callerFor(payer).batch({ count: 3 });
    const charges = (await ledgerRows(payer.id)).filter((r) => r.kind === "charge");
    expect(charges).toEqual([expect.objectContaining({ delta: -price * 3, quantity: 3 })]);
  });
});

describe("members.viewProfile", () => {
  let viewer: TestUser;
  beforeAll(async () => {
    viewer = await api.createUser({ points: 1000 });
  });

  it("answers the public profile shape and the detail's own two (自己紹介, last-active bucket) only, and leaves a footprint", async () => {
    const target = await api.createUser({ gender: "female", birthday: "1995-04-01", address: "東京都", name: "花子" });
    const { profile } = await api.caller(viewer).members.viewProfile({ id: target.id });
    expect(Object.keys(profile).sort()).toEqual(
      [
        "age",
        "annualIncome",
        "createdAt",
        "gender",
        "id",
        "lastActive",
        "name",
        "occupation",
        "photoLink",
        "prefecture",
        "selfIntroduction",
        "verified",
      ].sort(),
    );
    expect(profile).toMatchObject({ name: "花子", gender: "female", prefecture: "東京都" });
    expect(profile.age).toBeGreaterThanOrEqual(30);
    const seen = await api.caller(target).members.footprints();
    expect(seen.map((f) => f.viewer.id)).toEqual([viewer.id]);
    expect(Object.keys(seen[0]?.viewer ?? {})).not.toContain("email");
  });

  it("is free again within 24 hours, and charged again after", async () => {
    const target = await api.createUser();
    const price = await cost("profile_view");
    const first = await api.caller(viewer).members.viewProfile({ id: target.id });
    const again = await api.caller(viewer).members.viewProfile({ id: target.id });
    expect(first.charged).toBe(true);
    expect(again).toMatchObject({ charged: false, remainingPoints: first.remainingPoints });
    await api.database.db
      .update(profileViews)
      .set({ chargedAt: sql`now() - interval '25 hours'` })
      .where(and(eq(profileViews.viewerId, viewer.id), eq(profileViews.viewedId, target.id)));
    const later = await api.caller(viewer).members.viewProfile({ id: target.id });
    expect(later).toMatchObject({ charged: true, remainingPoints: first.remainingPoints - price });
    const prints = await api.database.db.select().from(footprints).where(eq(footprints.viewedId, target.id));
    expect(prints).toHaveLength(1);
  });

  it("does not show deleted members, administrators or unknown ids", async () => {
    const admin = await api.createUser({ role: "admin" });
    const gone = await api.createUser();
    await api.caller(admin).adminUsers.delete({ id: gone.id });
    for (const id of [admin.id, gone.id, "00000000-0000-4000-8000-000000000000"]) {
      await expect(api.caller(viewer).members.viewProfile({ id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    }
  });
});

// On PostgreSQL the views really interleave; on PGlite they run one after another.
describe.runIf(onPostgres)("members.viewProfile under concurrency (PostgreSQL)", () => {
  it("200 concurrent views of one profile by one member are charged once", async () => {
    const viewer = await api.createUser({ points: 1000 });
    const target = await api.createUser();
    const price = await cost("profile_view");
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, () => api.caller(viewer).members.viewProfile({ id: target.id })),
    );
    expect(results.filter((r) => r.status === "rejected")).toEqual([]);
    const charges = (await ledgerRows(viewer.id)).filter((r) => r.kind === "charge");
    expect(charges).toHaveLength(1);
    const [user] = await api.database.db.select().from(users).where(eq(users.id, viewer.id));
    expect(user?.points).toBe(1000 - price);
  });
});
