import { randomBytes } from "node:crypto";
import { pointCosts, pointLedger, profilePhotoViews, users } from "@enmusubi/db";
import { onPostgres } from "@enmusubi/db/testing";
import { insufficientPoints, MSG, PHOTO_URL_TTL_SECONDS } from "@enmusubi/shared";
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createPhotoUrlSigner } from "../src/photos/signed-url";
import { snapshotTables, type TestUser, useTestApi } from "./helpers";

/**
 * Decision 0028: members see thumbnails; the full-size photo is sold through
 * members.viewPhoto as a short-lived signed URL. (The files and the /uploads plugin: the server's
 * photo-urls-rest.test.ts.)
 */
const api = useTestApi();
const TABLES = ["users", "point_ledger", "prepaid_actions", "profile_photo_views"];
const stored = () => `/uploads/photos/${randomBytes(16).toString("hex")}.jpg`;
const FULL_SIZE = /\/uploads\/photos\/|sig=/;

async function cost() {
  const [row] = await api.database.db.select().from(pointCosts).where(eq(pointCosts.actionName, "profile_photo_view"));
  return row?.pointCost ?? Number.NaN;
}
async function charges(userId: string) {
  return (await api.database.db.select().from(pointLedger).where(eq(pointLedger.userId, userId))).filter(
    (r) => r.kind === "charge" && r.actionName === "profile_photo_view",
  );
}

let viewer: TestUser;
let she: TestUser;
let herLink: string;
beforeAll(async () => {
  viewer = await api.createUser({ points: 1000, photoLink: stored() });
  herLink = stored();
  she = await api.createUser({ gender: "female", name: "写真の人", photoLink: herLink });
});

describe("hidden until paid: no member-facing answer carries the full-size image", () => {
  it("search, the profile detail, favourites, footprints, contacts and the board answer the thumbnail only", async () => {
    const me = api.caller(viewer);
    const thumb = herLink.replace("/uploads/photos/", "/uploads/thumbs/");
    const search = await me.members.search({ keyword: "写真の人" });
    expect(search.profiles[0]?.photoLink).toBe(thumb);
    const detail = await me.members.viewProfile({ id: she.id });
    expect(detail.profile.photoLink).toBe(thumb);
    await me.members.addFavorite({ id: she.id });
    const favourites = await me.members.favorites();
    const footprints = await api.caller(she).members.footprints();
    await api.caller(she).messages.send({ recipientIds: [viewer.id], body: "こんにちは" });
    const contacts = await me.messages.contacts();
    const inbox = await me.messages.list({ box: "inbox" });
    await api.caller(she).board.create({ title: "写真つき", content: "よろしく" });
    await me.board.enter();
    const board = await me.board.list({});
    const price = await me.members.photoPrice({ id: she.id });
    for (const answer of [search, detail, favourites, contacts, inbox, board, price]) {
      expect(JSON.stringify(answer)).not.toMatch(FULL_SIZE);
      expect(JSON.stringify(answer)).not.toContain(herLink);
    }
    expect(JSON.stringify(footprints)).not.toMatch(FULL_SIZE);
    expect(JSON.stringify(board)).toContain(thumb);
  });

  it("one's own profile and the administrators' answers carry the full-size image signed, free", async () => {
    const own = await api.caller(viewer).profile.me();
    expect(own.photoUrl).toMatch(/^\/uploads\/photos\/[0-9a-f]{32}\.jpg\?exp=\d+&sig=[A-Za-z0-9_-]{43}$/);
    const admin = await api.createUser({ role: "admin" });
    const seen = await api.caller(admin).adminUsers.get({ id: she.id });
    expect(seen.photoUrl?.startsWith(`${herLink}?exp=`)).toBe(true);
    expect(await charges(viewer.id)).toHaveLength(0);
  });

  it("an outside http(s) link is shown as it is and cannot be enlarged; a member without a photo has none", async () => {
    const outside = await api.createUser({ photoLink: "https://example.com/a.jpg" });
    const none = await api.createUser();
    const before = await snapshotTables(api, ...TABLES);
    const detail = await api.caller(viewer).members.viewProfile({ id: outside.id });
    expect(detail.profile.photoLink).toBe("https://example.com/a.jpg");
    const after = await snapshotTables(api, ...TABLES);
    for (const target of [outside, none]) {
      expect(await api.caller(viewer).members.photoPrice({ id: target.id })).toMatchObject({
        available: false,
        cost: 0,
      });
      const snapshot = await snapshotTables(api, ...TABLES);
      await expect(api.caller(viewer).members.viewPhoto({ id: target.id })).rejects.toMatchObject({
        code: "BAD_REQUEST",
        message: MSG.photoNone,
      });
      expect(await snapshotTables(api, ...TABLES)).toEqual(snapshot);
    }
    expect(after).not.toEqual(before); // the profile view itself was charged
  });
});

describe("members.viewPhoto", () => {
  it("charges once, quotes and answers a re-view within 24 hours free, and charges again after", async () => {
    const payer = await api.createUser({ points: 500 });
    const target = await api.createUser({ gender: "female", photoLink: stored() });
    const price = await cost();
    expect(price).toBeGreaterThan(0);
    expect(await api.caller(payer).members.photoPrice({ id: target.id })).toEqual({
      available: true,
      cost: price,
      free: false,
      freeUntil: null,
      reason: null,
    });
    const first = await api.caller(payer).members.viewPhoto({ id: target.id });
    expect(first).toMatchObject({ charged: true, remainingPoints: 500 - price });
    expect(first.url).toMatch(/^\/uploads\/photos\/[0-9a-f]{32}\.jpg\?exp=\d+&sig=/);
    const ttl = (first.expiresAt.getTime() - Date.now()) / 1000;
    expect(ttl).toBeGreaterThan(PHOTO_URL_TTL_SECONDS - 5);
    expect(ttl).toBeLessThanOrEqual(PHOTO_URL_TTL_SECONDS + 60);

    const quote = await api.caller(payer).members.photoPrice({ id: target.id });
    expect(quote).toMatchObject({ available: true, cost: 0, free: true, reason: "recentView" });
    expect(quote.freeUntil).toBeInstanceOf(Date);
    const again = await api.caller(payer).members.viewPhoto({ id: target.id });
    expect(again).toMatchObject({ charged: false, remainingPoints: 500 - price });
    expect(await charges(payer.id)).toHaveLength(1);

    await api.database.db
      .update(profilePhotoViews)
      .set({ chargedAt: sql`now() - interval '25 hours'` })
      .where(and(eq(profilePhotoViews.viewerId, payer.id), eq(profilePhotoViews.viewedId, target.id)));
    expect((await api.caller(payer).members.photoPrice({ id: target.id })).cost).toBe(price);
    const later = await api.caller(payer).members.viewPhoto({ id: target.id });
    expect(later).toMatchObject({ charged: true, remainingPoints: 500 - 2 * price });
    expect(await charges(payer.id)).toHaveLength(2);
  });

  it("one's own photo is free and quoted free", async () => {
    expect(await api.caller(viewer).members.photoPrice({ id: viewer.id })).toMatchObject({
      available: true,
      cost: 0,
      reason: "own",
    });
    const own = await api.caller(viewer).members.viewPhoto({ id: viewer.id });
    expect(own.charged).toBe(false);
    expect(await charges(viewer.id)).toHaveLength(0);
  });

  it("not enough points: refused with the catalogue's message, nothing changed, and quoted again", async () => {
    const poor = await api.createUser({ points: 1 });
    const before = await snapshotTables(api, ...TABLES);
    // The message is worked out first: awaiting inside expect's argument leaves the call's
    // rejection unhandled until the matcher attaches (vitest reports it as an error).
    const message = insufficientPoints(await cost(), 1);
    await expect(api.caller(poor).members.viewPhoto({ id: she.id })).rejects.toMatchObject({
      code: "PAYMENT_REQUIRED",
      message,
    });
    expect(await snapshotTables(api, ...TABLES)).toEqual(before);
    expect((await api.caller(poor).members.photoPrice({ id: she.id })).free).toBe(false);
  });

  it("a member blocked either way, suspended, deleted, an administrator or an unknown id is NOT_FOUND before any charge", async () => {
    const blocker = await api.createUser({ gender: "female", photoLink: stored() });
    await api.caller(blocker).safety.block({ userId: viewer.id });
    const suspended = await api.createUser({ photoLink: stored() });
    await api.database.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, suspended.id));
    const admin = await api.createUser({ role: "admin", photoLink: stored() });
    const before = await snapshotTables(api, ...TABLES);
    for (const id of [blocker.id, suspended.id, admin.id, "00000000-0000-4000-8000-000000000000"]) {
      await expect(api.caller(viewer).members.viewPhoto({ id })).rejects.toMatchObject({ code: "NOT_FOUND" });
      await expect(api.caller(viewer).members.photoPrice({ id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    }
    expect(await snapshotTables(api, ...TABLES)).toEqual(before);
  });

  it("a failure inside the transaction after the claim changes nothing (the charge's ledger write fails)", async () => {
    const payer = await api.createUser({ points: 100 });
    const caller = api.caller(payer);
    // The charge's ledger row is refused by a trigger: the claimed row and the balance roll back with it.
    await api.database.db.execute(sql`
      create or replace function test_photo_view_fail() returns trigger language plpgsql as $$
      begin raise exception 'boom'; end $$`);
    await api.database.db.execute(sql`
      create trigger test_photo_view_fail after insert on point_ledger for each row
      when (new.action_name = 'profile_photo_view') execute function test_photo_view_fail()`);
    try {
      const before = await snapshotTables(api, ...TABLES);
      await expect(caller.members.viewPhoto({ id: she.id })).rejects.toBeDefined();
      expect(await snapshotTables(api, ...TABLES)).toEqual(before);
    } finally {
      await api.database.db.execute(sql`drop trigger test_photo_view_fail on point_ledger`);
    }
  });
});

describe("signed full-size URLs", () => {
  const signer = createPhotoUrlSigner("signer-test-secret-signer-test-secret-000");
  const link = stored();
  const name = link.slice("/uploads/photos/".length);
  const parts = (url: string) => {
    const query = new URL(url, "http://x").searchParams;
    return { exp: query.get("exp") ?? "", sig: query.get("sig") ?? "" };
  };

  it("verifies its own signature until it expires, bound to the name and the expiry", () => {
    const now = new Date("2026-01-01T00:00:00Z");
    const signed = signer.sign(link, now);
    if (!signed) throw new Error("not signed");
    const { exp, sig } = parts(signed.url);
    expect(signer.verify(name, exp, sig, now)).toBe(true);
    expect(signer.verify(name, exp, sig, new Date(signed.expiresAt.getTime() + 1000))).toBe(false);
    expect(signer.verify(stored().slice(16), exp, sig, now)).toBe(false);
    expect(signer.verify(name, String(Number(exp) + 60), sig, now)).toBe(false);
    expect(signer.verify(name, exp, `${sig.slice(0, -1)}${sig.endsWith("A") ? "B" : "A"}`, now)).toBe(false);
    expect(signer.verify(name, exp, undefined, now)).toBe(false);
    expect(signer.verify(name, "not-a-number", sig, now)).toBe(false);
    // Another server's secret signs nothing this one honours.
    const other = createPhotoUrlSigner("other-secret-other-secret-other-secret-00").sign(link, now);
    expect(signer.verify(name, parts(other?.url ?? "").exp, parts(other?.url ?? "").sig, now)).toBe(false);
  });

  it("signs stored photos only, and refuses an expiry further ahead than it ever signs", () => {
    expect(signer.sign("https://example.com/a.jpg")).toBeNull();
    expect(signer.sign("/uploads/photos/../../etc/passwd")).toBeNull();
    expect(signer.sign(null)).toBeNull();
    const far = createPhotoUrlSigner("signer-test-secret-signer-test-secret-000", 365 * 24 * 3600).sign(link);
    const { exp, sig } = parts(far?.url ?? "");
    expect(signer.verify(name, exp, sig)).toBe(false);
  });
});

// On PostgreSQL the calls really interleave; on PGlite they run one after another.
describe.runIf(onPostgres)("members.viewPhoto under concurrency (PostgreSQL)", () => {
  it("100 concurrent enlargements of one member's photo by one member are charged once", async () => {
    const payer = await api.createUser({ points: 1000 });
    const target = await api.createUser({ gender: "female", photoLink: stored() });
    const price = await cost();
    const results = await Promise.allSettled(
      Array.from({ length: 100 }, () => api.caller(payer).members.viewPhoto({ id: target.id })),
    );
    expect(results.filter((r) => r.status === "rejected")).toEqual([]);
    expect(results.filter((r) => r.status === "fulfilled" && r.value.charged)).toHaveLength(1);
    expect(await charges(payer.id)).toHaveLength(1);
    const [user] = await api.database.db.select().from(users).where(eq(users.id, payer.id));
    expect(user?.points).toBe(1000 - price);
  });
});
