import { pointCosts, profileViews, users } from "@enmusubi/db";
import { MSG, PROFILE_VIEW_FREE_HOURS } from "@enmusubi/shared";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepayAction } from "../src/points/prepaid";
import { forgetReferenceList } from "../src/reference/cache";
import { snapshotTables, type TestUser, useTestApi } from "./helpers";

/**
 * Decision 0026: the profile-view confirmation quotes what the view will take. members.viewPrice must
 * agree exactly with members.viewProfile: the quoted cost is the points the view then takes.
 */
const api = useTestApi();
const PRICE = 15;

async function setViewPrice(pointCost: number) {
  await api.database.db.update(pointCosts).set({ pointCost }).where(eq(pointCosts.actionName, "profile_view"));
  forgetReferenceList(api.database.db, "point_costs");
}

async function balance(user: TestUser) {
  const [row] = await api.database.db.select({ points: users.points }).from(users).where(eq(users.id, user.id));
  return row?.points ?? Number.NaN;
}

/** Quotes, then views: answers the quote and the points the view took. */
async function quoteThenView(viewer: TestUser, target: TestUser) {
  const quote = await api.caller(viewer).members.viewPrice({ id: target.id });
  const before = await balance(viewer);
  await api.caller(viewer).members.viewProfile({ id: target.id });
  return { quote, taken: before - (await balance(viewer)) };
}

describe("members.viewPrice agrees with what the view charges", () => {
  let viewer: TestUser;
  beforeAll(async () => {
    await setViewPrice(PRICE);
    viewer = await api.createUser({ points: 1000 });
  });
  afterAll(async () => {
    await setViewPrice(PRICE);
  });

  it("first view: the price; re-view within 24 h: free until the window ends; after 24 h: the price again", async () => {
    const target = await api.createUser();
    const first = await quoteThenView(viewer, target);
    expect(first.quote).toEqual({ cost: PRICE, free: false, freeUntil: null, reason: null });
    expect(first.taken).toBe(first.quote.cost);

    const [view] = await api.database.db
      .select({ chargedAt: profileViews.chargedAt })
      .from(profileViews)
      .where(and(eq(profileViews.viewerId, viewer.id), eq(profileViews.viewedId, target.id)));
    const again = await quoteThenView(viewer, target);
    expect(again.quote).toMatchObject({ cost: 0, free: true, reason: "recentView" });
    expect(again.quote.freeUntil?.getTime()).toBe(
      new Date(view?.chargedAt as Date).getTime() + PROFILE_VIEW_FREE_HOURS * 3_600_000,
    );
    expect(again.taken).toBe(0);

    await api.database.db
      .update(profileViews)
      .set({ chargedAt: sql`now() - make_interval(hours => ${PROFILE_VIEW_FREE_HOURS}) - interval '1 second'` })
      .where(and(eq(profileViews.viewerId, viewer.id), eq(profileViews.viewedId, target.id)));
    const later = await quoteThenView(viewer, target);
    expect(later.quote).toEqual({ cost: PRICE, free: false, freeUntil: null, reason: null });
    expect(later.taken).toBe(PRICE);
  });

  it("price 0: free (noPrice), nothing taken", async () => {
    await setViewPrice(0);
    try {
      const target = await api.createUser();
      const view = await quoteThenView(viewer, target);
      expect(view.quote).toEqual({ cost: 0, free: true, freeUntil: null, reason: "noPrice" });
      expect(view.taken).toBe(0);
    } finally {
      await setViewPrice(PRICE);
    }
  });

  it("a prepaid profile_view credit pays first: quoted 0 (prepaid), nothing taken from the balance", async () => {
    const member = await api.createUser({ points: 100 });
    await prepayAction(api.database.db, { userId: member.id, actionName: "profile_view" });
    const target = await api.createUser();
    const view = await quoteThenView(member, target);
    expect(view.quote).toEqual({ cost: 0, free: true, freeUntil: null, reason: "prepaid" });
    expect(view.taken).toBe(0);
    // The credit is spent: the next profile costs the price.
    const next = await quoteThenView(member, await api.createUser());
    expect(next.quote.cost).toBe(PRICE);
    expect(next.taken).toBe(PRICE);
  });

  it("one's own profile is free (own)", async () => {
    const view = await quoteThenView(viewer, viewer);
    expect(view.quote).toEqual({ cost: 0, free: true, freeUntil: null, reason: "own" });
    expect(view.taken).toBe(0);
  });

  it("suspended, deleted, blocked, administrators and unknown ids: the view's 404; a bad id: 400; nothing written", async () => {
    const admin = await api.createUser({ role: "admin" });
    const suspended = await api.createUser();
    const gone = await api.createUser();
    const blocker = await api.createUser();
    const blocked = await api.createUser();
    await api.caller(admin).adminModeration.suspend({ userId: suspended.id, reason: "テスト" });
    await api.caller(admin).adminUsers.delete({ id: gone.id });
    await api.caller(blocker).safety.block({ userId: viewer.id });
    await api.caller(viewer).safety.block({ userId: blocked.id });
    const before = await snapshotTables(api, "users", "point_ledger", "profile_views", "footprints");
    for (const id of [
      suspended.id,
      gone.id,
      blocker.id,
      blocked.id,
      admin.id,
      "00000000-0000-4000-8000-000000000000",
    ]) {
      const notFound = { code: "NOT_FOUND", message: MSG.notFound };
      await expect(api.caller(viewer).members.viewPrice({ id })).rejects.toMatchObject(notFound);
      await expect(api.caller(viewer).members.viewProfile({ id })).rejects.toMatchObject(notFound);
    }
    await expect(api.caller(viewer).members.viewPrice({ id: "nope" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: MSG.notFound,
    });
    expect(await snapshotTables(api, "users", "point_ledger", "profile_views", "footprints")).toEqual(before);
  });

  it("administrators and signed-out callers are refused", async () => {
    const admin = await api.createUser({ role: "admin" });
    const target = await api.createUser();
    await expect(api.caller(admin).members.viewPrice({ id: target.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(api.caller().members.viewPrice({ id: target.id })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});
