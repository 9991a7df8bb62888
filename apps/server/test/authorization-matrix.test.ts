/**
 * The authorization matrix ("Reliability"), generated from the router: every tRPC
 * procedure is called as anonymous, a member, another member and an administrator with a
 * minimal input, and the answer classifies it (UNAUTHORIZED → needs a session; FORBIDDEN with the
 * generic message → the wrong role). The classification must equal ACCESS below, which states
 * each procedure's kind: a procedure that is new (or whose builder changed) fails here until it is
 * added, so whoever adds it decides its kind in review.
 *
 * Ownership: every procedure with which a member names an object of another member by id is in
 * OWNED, with how the owner's object is made; another member naming it gets NOT_FOUND (the object
 * is not acknowledged to exist) and the database does not change.
 */
import { randomUUID } from "node:crypto";
import { appRouter, createCaller, createContextInner, type Session } from "@enmusubi/api";
import { MSG } from "@enmusubi/shared";
import { TRPCError } from "@trpc/server";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { changedTables, databaseFingerprint } from "./fingerprint";
import { type RestUser, useTestServer } from "./helpers";
import { keysOf } from "./schema-keys";

vi.setConfig({ hookTimeout: 120_000 });
const server = useTestServer();

type Kind = "public" | "signedIn" | "member" | "admin";
type Who = "anonymous" | "member" | "other" | "admin";
type Outcome = "allowed" | "UNAUTHORIZED" | "FORBIDDEN";

/** What each procedure's builder lets through (publicProcedure, authedProcedure, memberProcedure, adminProcedure). */
const ACCESS: Record<string, Kind> = {
  "auth.login": "public",
  "auth.signup": "public",
  "auth.join": "public",
  "account.consent": "member",
  "account.acceptTerms": "member",
  "account.pointBalance": "member",
  "account.withdrawalPreview": "member",
  "account.withdraw": "member",
  "auth.forgot": "public",
  "auth.uniqueGenerate": "admin",
  "profile.me": "signedIn",
  "profile.update": "signedIn",
  "profile.uploadPhoto": "signedIn",
  "profile.removePhoto": "signedIn",
  "account.noticeSetting": "member",
  "account.setNoticeSetting": "member",
  "account.stopNotice": "public",
  "account.requestEmailChange": "member",
  "account.confirmEmailChange": "public",
  "members.search": "member",
  "members.viewProfile": "member",
  "members.viewPrice": "member",
  "members.viewPhoto": "member",
  "members.photoPrice": "member",
  "members.footprints": "member",
  "members.favorites": "member",
  "members.addFavorite": "member",
  "members.removeFavorite": "member",
  "messages.send": "member",
  "messages.list": "member",
  "messages.get": "member",
  "messages.open": "member",
  "messages.contacts": "member",
  "messages.conversations": "member",
  "messages.thread": "member",
  "messages.unreadCount": "member",
  "messages.onUnreadCount": "member",
  // Any recipient: administrators mark their own received messages too (legacy calls).
  "messages.markRead": "signedIn",
  "messages.markReplied": "signedIn",
  "adminMessages.list": "admin",
  "adminMessages.conversation": "admin",
  "adminMessages.send": "admin",
  "adminMessages.sendAsUser": "admin",
  "adminMessages.update": "admin",
  "adminMessages.delete": "admin",
  "adminUsers.list": "admin",
  "adminUsers.get": "admin",
  "adminUsers.create": "admin",
  "adminUsers.update": "admin",
  "adminUsers.updateLegacy": "admin",
  "adminUsers.updateSendPoints": "admin",
  "adminUsers.delete": "admin",
  "adminUsers.ledger": "admin",
  "adminUsers.exportStart": "admin",
  "adminUsers.exportPage": "admin",
  "adminUsers.withdrawn": "admin",
  "adminUsers.restore": "admin",
  "points.deduct": "member",
  "photos.adminUpload": "admin",
  "reference.occupations.list": "public",
  "reference.occupations.create": "admin",
  "reference.occupations.delete": "admin",
  "reference.annualIncomes.list": "public",
  "reference.annualIncomes.create": "admin",
  "reference.annualIncomes.delete": "admin",
  "reference.pointCosts.list": "public",
  "reference.pointCosts.update": "admin",
  "reference.pointCosts.create": "admin",
  "reference.pointCosts.delete": "admin",
  "scheduled.create": "signedIn",
  "scheduled.list": "signedIn",
  "scheduled.cancel": "signedIn",
  "scheduled.adminPending": "admin",
  "board.access": "member",
  "board.enter": "member",
  "board.list": "member",
  "board.myPosts": "member",
  "board.people": "member",
  "board.create": "member",
  "board.delete": "member",
  "board.react": "member",
  "board.read": "member",
  "adminBoard.stats": "admin",
  "adminBoard.list": "admin",
  "adminBoard.create": "admin",
  "adminBoard.delete": "admin",
  "legal.info": "public",
  "purchase.settings": "member",
  "purchase.quote": "member",
  "purchase.bonusQuote": "member",
  "purchase.create": "member",
  "purchase.history": "member",
  "purchase.smartPitNotify": "public",
  "purchase.cardNotify": "public",
  "purchase.cardResult": "member",
  "purchase.get": "member",
  "adminPayments.list": "admin",
  "adminPayments.confirm": "admin",
  "adminPayments.cancel": "admin",
  "adminPayments.sales": "admin",
  "adminPayments.getSettings": "admin",
  "adminPayments.updateExchange": "admin",
  "adminPayments.updateSmartPit": "admin",
  "adminPayments.updateCard": "admin",
  "adminPayments.updateBank": "admin",
  "adminPayments.updateGeneral": "admin",
  "adminPayments.unusedBalanceReport": "admin",
  "adminPayments.unusedBalanceCsv": "admin",
  "adminPayments.saveSettings": "admin",
  "adminPayments.notifications": "admin",
  "adminPayments.resolveNotification": "admin",
  "adminPayments.bonusRules": "admin",
  "adminPayments.saveBonusRules": "admin",
  "adminPayments.createCampaign": "admin",
  "adminPayments.endCampaign": "admin",
  "safety.block": "member",
  "safety.unblock": "member",
  "safety.blocked": "member",
  "safety.report": "member",
  "adminModeration.queue": "admin",
  "adminModeration.dismiss": "admin",
  "adminModeration.removeContent": "admin",
  "adminModeration.suspendReported": "admin",
  "adminModeration.suspend": "admin",
  "adminModeration.unsuspend": "admin",
  "adminModeration.standing": "admin",
  "verification.status": "member",
  "verification.submit": "member",
  "adminVerification.queue": "admin",
  "adminVerification.image": "admin",
  "adminVerification.approve": "admin",
  "adminVerification.reject": "admin",
  "adminProfileReview.queue": "admin",
  "adminProfileReview.approve": "admin",
  "adminProfileReview.reject": "admin",
  "adminScreening.rules": "admin",
  "adminScreening.createRule": "admin",
  "adminScreening.updateRule": "admin",
  "adminScreening.deleteRule": "admin",
  "adminScreening.queue": "admin",
  "adminScreening.release": "admin",
  "adminScreening.reject": "admin",
  "inquiries.create": "member",
  "inquiries.list": "member",
  "inquiries.delete": "member",
  "inquiries.markRepliesSeen": "member",
  "adminInquiries.list": "admin",
  "adminInquiries.markRead": "admin",
  "adminInquiries.reply": "admin",
  "adminAudit.list": "admin",
  "adminAudit.actions": "admin",
  "adminDashboard.summary": "admin",
  "adminDashboard.waiting": "admin",
  "phone.status": "member",
  "phone.requestCode": "member",
  "phone.confirmCode": "member",
  "adminPhone.state": "admin",
  "adminPhone.clear": "admin",
  "adminPhone.bonusSettings": "admin",
  "adminPhone.saveBonusSettings": "admin",
};

const EXPECTED: Record<Kind, Record<Who, Outcome>> = {
  public: { anonymous: "allowed", member: "allowed", other: "allowed", admin: "allowed" },
  signedIn: { anonymous: "UNAUTHORIZED", member: "allowed", other: "allowed", admin: "allowed" },
  member: { anonymous: "UNAUTHORIZED", member: "allowed", other: "allowed", admin: "FORBIDDEN" },
  admin: { anonymous: "UNAUTHORIZED", member: "FORBIDDEN", other: "FORBIDDEN", admin: "allowed" },
};

let people: Record<Who, RestUser | undefined>;

beforeAll(async () => {
  people = {
    anonymous: undefined,
    member: await server.createUser({ gender: "male", points: 10_000 }),
    other: await server.createUser({ gender: "male", points: 10_000 }),
    admin: await server.createUser({ role: "admin" }),
  };
  // A member may order only with a method configured completely.
  await procedureOf(
    people.admin,
    "adminPayments.updateSmartPit",
  )({
    smartPitId: "SP-MATRIX",
    apiKey: "matrix-key-0001",
    isActive: true,
  });
  await procedureOf(
    people.admin,
    "adminPayments.updateCard",
  )({
    merchantId: "M-MATRIX",
    secret: "matrix-card-secret-0001",
    paymentUrl: "https://pay.example-card.jp/checkout",
    isActive: true,
    ageVerification: false,
  });
});

type Procedure = (input: unknown) => Promise<unknown>;

function procedureOf(user: RestUser | undefined, path: string): Procedure {
  const session: Session | null = user ? user.session : null;
  const caller = createCaller(createContextInner(server.app.deps, session)) as unknown as Record<string, unknown>;
  return path.split(".").reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], caller) as Procedure;
}

/** A call's answer, as far as roles go. A subscription's iterator is closed at once. */
async function outcome(user: RestUser | undefined, path: string, input: unknown): Promise<Outcome> {
  try {
    const result = await procedureOf(user, path)(input);
    const iterator = result as { return?: () => Promise<unknown> } | null;
    if (iterator && typeof iterator === "object" && typeof iterator.return === "function") await iterator.return();
    return "allowed";
  } catch (error) {
    if (!(error instanceof TRPCError)) throw error;
    if (error.code === "UNAUTHORIZED" && error.message === MSG.unauthorized) return "UNAUTHORIZED";
    if (error.code === "FORBIDDEN" && error.message === MSG.forbidden) return "FORBIDDEN";
    return "allowed";
  }
}

/**
 * A minimal input: nothing at all. Roles are checked before input (the builders' middlewares run
 * before `.input()`), so a refusal by role never depends on it; a caller that passes the role
 * check gets a field error, which counts as "allowed" here.
 */
const MINIMAL: unknown = undefined;

const paths = Object.keys(appRouter._def.procedures);

describe("role matrix, generated from the router", () => {
  it("every procedure has a declared kind, and no declared kind names a procedure that is gone", () => {
    expect(
      paths.filter((p) => !(p in ACCESS)),
      "procedures without a kind in ACCESS",
    ).toEqual([]);
    expect(
      Object.keys(ACCESS).filter((p) => !paths.includes(p)),
      "kinds of procedures that are gone",
    ).toEqual([]);
  });

  it("each procedure × {anonymous, member, another member, administrator} answers what its kind says", async () => {
    const failures: string[] = [];
    const observed: Record<string, Kind> = {};
    for (const path of paths) {
      const seen = {} as Record<Who, Outcome>;
      for (const who of ["anonymous", "member", "other", "admin"] as Who[]) {
        seen[who] = await outcome(people[who], path, MINIMAL);
      }
      const kind = (Object.keys(EXPECTED) as Kind[]).find((k) =>
        (Object.keys(seen) as Who[]).every((w) => EXPECTED[k][w] === seen[w]),
      );
      observed[path] = kind ?? ("?" as Kind);
      if (kind !== ACCESS[path]) failures.push(`${path}: declared ${ACCESS[path]}, answers ${JSON.stringify(seen)}`);
    }
    if (process.env.PRINT_ACCESS) console.log(JSON.stringify(observed, null, 2));
    expect(failures).toEqual([]);
  }, 300_000);
});

interface OwnedCase {
  /** What the owner's object is. */
  object: string;
  /** Makes the owner's object; answers the input that names it. */
  arrange(owner: RestUser, recipient: RestUser): Promise<unknown>;
}

const call = (user: RestUser, path: string, input: unknown) => procedureOf(user, path)(input);

async function verifiedMember(): Promise<RestUser> {
  return server.createUser({ gender: "female" });
}

/**
 * Every procedure through which a member names a member-owned object by id. Procedures that take
 * another member's id (favourites, blocks, reports, profile views) act on the caller's own rows and
 * are not here; administrators' procedures are covered by the role matrix.
 */
const OWNED: Record<string, OwnedCase> = {
  "messages.get": {
    object: "a message between two other members",
    arrange: async (owner, recipient) => ({
      id: (
        (await call(owner, "messages.send", { recipientIds: [recipient.id], body: "こんにちは" })) as {
          messageIds: string[];
        }
      ).messageIds[0],
    }),
  },
  "messages.open": {
    object: "a message between two other members",
    arrange: async (owner, recipient) => OWNED["messages.get"]?.arrange(owner, recipient),
  },
  "messages.markRead": {
    object: "a message between two other members",
    arrange: async (owner, recipient) => OWNED["messages.get"]?.arrange(owner, recipient),
  },
  "messages.markReplied": {
    object: "a message between two other members",
    arrange: async (owner, recipient) => OWNED["messages.get"]?.arrange(owner, recipient),
  },
  "scheduled.cancel": {
    object: "another member's scheduled message",
    arrange: async (owner, recipient) => ({
      id: (
        (await call(owner, "scheduled.create", {
          type: "direct",
          recipientIds: [recipient.id],
          content: "予約したメッセージ",
          scheduledAt: new Date(Date.now() + 2 * 3600_000),
          source: "user:favorite",
        })) as { id: string }
      ).id,
    }),
  },
  "board.delete": {
    object: "another member's board post",
    arrange: async (owner) => ({
      id: (
        (await call(owner, "board.create", { title: "はじめまして", content: "よろしくお願いします" })) as {
          id: string;
        }
      ).id,
    }),
  },
  "inquiries.delete": {
    object: "another member's inquiry",
    arrange: async (owner) => ({
      id: (
        (await call(owner, "inquiries.create", { title: "お問い合わせ", message: "ポイントについて" })) as {
          id: string;
        }
      ).id,
    }),
  },
  "inquiries.markRepliesSeen": {
    object: "another member's inquiry",
    arrange: async (owner, recipient) => OWNED["inquiries.delete"]?.arrange(owner, recipient),
  },
  "purchase.cardResult": {
    object: "another member's card order",
    arrange: async (owner) => ({
      id: ((await call(owner, "purchase.create", { amount: 3000, paymentMethod: "card" })) as { id: string }).id,
    }),
  },
  "purchase.get": {
    object: "another member's purchase transaction",
    arrange: async (owner) => ({
      id: ((await call(owner, "purchase.create", { amount: 3000, paymentMethod: "smart_pit" })) as { id: string }).id,
    }),
  },
};

/** Member procedures that take an id but name no object another member owns, and why. */
const NOT_OWNED: Record<string, string> = {
  "members.viewProfile": "names a member to look at (public profile, charged)",
  "members.viewPrice": "names a member whose view is quoted (read only)",
  "members.viewPhoto": "names a member whose photo is enlarged (public, charged; the signed URL is of that photo only)",
  "members.photoPrice": "names a member whose photo enlargement is quoted (read only)",
  "members.addFavorite": "names a member; the favourite row is the caller's own",
  "members.removeFavorite": "names a member; removes only the caller's own favourite row",
  "board.read": "any verified member may read any post; the read mark is the caller's own",
  "board.react": "any verified member may react to any post; the reaction is the caller's own",
  "board.people": "names authors of posts the caller can see (public profile shape)",
  "safety.block": "names a member; the block row is the caller's own",
  "safety.unblock": "names a member; removes only the caller's own block row",
  "safety.report": "names the reported object; the report is the caller's own",
  "messages.send": "names recipients (members), not objects",
  "messages.list": "filters the caller's own mailbox",
  "messages.thread":
    "names a partner; answers only the caller's own messages with them (a `cursor` outside that conversation is refused)",
  "scheduled.create": "names recipients (members), not objects",
  "profile.update": "names reference rows (occupation, income): shared, not owned",
  "members.search": "filters by reference rows (occupation, income): shared, not owned",
};

describe("ownership: another member naming a member's object", () => {
  it("every member procedure taking an id is in OWNED or NOT_OWNED", () => {
    const takesId = Object.entries(
      appRouter._def.procedures as unknown as Record<string, { _def: { inputs?: unknown[] } }>,
    )
      .filter(([path]) => ACCESS[path] === "member" || ACCESS[path] === "signedIn")
      .filter(([, p]) => keysOf(p._def.inputs?.[0]).some((k) => k === "id" || /Ids?$/.test(k)))
      .map(([path]) => path);
    expect(takesId.length).toBeGreaterThan(5);
    expect(takesId.filter((p) => !(p in OWNED) && !(p in NOT_OWNED))).toEqual([]);
  });

  for (const [path, owned] of Object.entries(OWNED)) {
    it(`${path} (${owned.object}) answers NOT_FOUND and changes nothing`, async () => {
      const owner = await verifiedMember();
      const recipient = await verifiedMember();
      const input = await owned.arrange(owner, recipient);
      expect(JSON.stringify(input)).toMatch(/[0-9a-f-]{8,}|\w{6,}/);
      // Another member; and an administrator too where the procedure lets administrators in (it
      // acts on administrators' own objects there, never on a member's).
      const intruders = [people.other, ...(ACCESS[path] === "signedIn" ? [people.admin] : [])] as RestUser[];
      for (const intruder of intruders) {
        const before = await databaseFingerprint(server.database);
        await expect(call(intruder, path, input), intruder.role).rejects.toMatchObject({
          code: "NOT_FOUND",
          message: MSG.notFound,
        });
        const after = await databaseFingerprint(server.database);
        expect(changedTables(before, after)).toEqual([]);
      }
      // The same call by someone entitled does not answer NOT_FOUND: the id named a real object.
      const entitled = path.startsWith("messages.") && path !== "messages.get" ? recipient : owner;
      await expect(
        call(entitled, path, input).then(
          () => "ok",
          (e: TRPCError) => e.code,
        ),
      ).resolves.not.toBe("NOT_FOUND");
    });
  }

  it("an id that names nothing answers the same NOT_FOUND (no way to tell the two apart)", async () => {
    for (const path of Object.keys(OWNED)) {
      await expect(call(people.other as RestUser, path, { id: randomUUID() }), path).rejects.toMatchObject({
        code: "NOT_FOUND",
        message: MSG.notFound,
      });
    }
  });
});
