import { MSG } from "@enmusubi/shared";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { type RestUser, snapshotTables, useTestServer } from "./helpers";

/**
 * 「プロフィール審査」 over HTTP (decision 0044): REST clients see a member's approved
 * photo and 自己紹介 until an administrator approves the new one; the queue's rows.
 */
const server = useTestServer();
let admin: RestUser;
let viewer: RestUser;

async function photo(background: string) {
  const bytes = await sharp({ create: { width: 80, height: 60, channels: 3, background } })
    .jpeg()
    .toBuffer();
  return `data:image/jpeg;base64,${bytes.toString("base64")}`;
}
const nameOf = (url: string | null | undefined) => url?.split("?")[0]?.split("/").pop() ?? null;
const TABLES = ["users", "profile_reviews", "admin_audit_log", "mail_outbox"];

beforeAll(async () => {
  admin = await server.createUser({ role: "admin" });
  viewer = await server.createUser({ points: 5000 });
});

describe("GET /api/admin/profile-reviews and its decisions", () => {
  it("a new photo stays unseen by REST clients (search, detail, enlargement) until approved", async () => {
    const tag = `審査${Math.random().toString(36).slice(2, 7)}`;
    const she = await server.createUser({ gender: "female", name: tag });
    await server.request({
      method: "POST",
      url: "/api/photo-data/photo-data",
      as: she,
      payload: { photodatas: await photo("#1a6") },
    });
    await server.approveProfile(she);
    const approved = (await server.request({ method: "GET", url: "/api/auth/me", as: she })).json().photoLink as string;
    const upload = await server.request({
      method: "POST",
      url: "/api/photo-data/photo-data",
      as: she,
      payload: { photodatas: await photo("#c21") },
    });
    expect(upload.json()).toMatchObject({ message: MSG.photoSubmittedForReview, photoLink: approved });
    const pendingName = nameOf(upload.json().user.photoUrl);

    const seen = async () => {
      const search = await server.request({
        method: "GET",
        url: `/api/users/search?keyword=${encodeURIComponent(tag)}`,
        as: viewer,
      });
      const detail = await server.request({ method: "POST", url: `/api/users/${she.id}/profile-view`, as: viewer });
      const enlarged = await server.request({ method: "POST", url: `/api/users/${she.id}/photo-view`, as: viewer });
      return { search: search.json(), detail: detail.json(), enlarged: enlarged.json() };
    };
    const before = await seen();
    expect(before.search.profiles[0].photoLink).toBe(approved);
    expect(JSON.stringify(before)).not.toContain(pendingName);
    expect(nameOf(before.enlarged.url)).toBe(nameOf(approved));
    // Its thumbnail is not served while it waits; the owner's signed full-size URL loads.
    expect((await server.request({ method: "GET", url: `/uploads/thumbs/${pendingName}` })).statusCode).toBe(404);
    expect((await server.request({ method: "GET", url: upload.json().user.photoUrl })).statusCode).toBe(200);

    const queue = await server.request({ method: "GET", url: "/api/admin/profile-reviews?limit=100", as: admin });
    expect(queue.statusCode).toBe(200);
    expect(queue.headers["cache-control"]).toBe("no-store");
    const row = queue.json().reviews.find((r: { user: { _id: string } }) => r.user._id === she.id);
    expect(row).toMatchObject({ kind: "photo", current: { introduction: null }, proposed: { introduction: null } });
    expect(nameOf(row.current.photoUrl)).toBe(nameOf(approved));
    expect(nameOf(row.proposed.photoUrl)).toBe(pendingName);

    const approve = await server.request({
      method: "POST",
      url: `/api/admin/profile-reviews/${row._id}/approve`,
      as: admin,
    });
    expect(approve.json()).toEqual({ success: true, message: MSG.profileReviewApproved, kind: "photo" });
    const after = await seen();
    expect(nameOf(after.search.profiles[0].photoLink)).toBe(pendingName);
    expect(nameOf(after.enlarged.url)).toBe(pendingName);
    expect((await server.request({ method: "GET", url: `/uploads/thumbs/${pendingName}` })).statusCode).toBe(200);

    // Once: a second approval is 409 and changes nothing.
    const tables = await snapshotTables(server, ...TABLES);
    const again = await server.request({
      method: "POST",
      url: `/api/admin/profile-reviews/${row._id}/approve`,
      as: admin,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: MSG.profileReviewAlreadyDecided });
    expect(await snapshotTables(server, ...TABLES)).toEqual(tables);
  });

  it("a rejected 自己紹介 is never shown; the owner's /api/auth/me says why", async () => {
    const she = await server.createUser({ gender: "female" });
    const put = await server.request({
      method: "PUT",
      url: "/api/auth/profile",
      as: she,
      payload: { selfIntroduction: "夜の遊び相手を探しています" },
    });
    expect(put.json()).toMatchObject({
      message: MSG.profileUpdatedPendingReview,
      user: {
        selfIntroduction: "夜の遊び相手を探しています",
        profileReview: { selfIntroduction: { status: "pending" } },
      },
    });
    const detail = async () =>
      (await server.request({ method: "POST", url: `/api/users/${she.id}/profile-view`, as: viewer })).json();
    expect(JSON.stringify(await detail())).not.toContain("夜の遊び");
    const queue = await server.request({ method: "GET", url: "/api/admin/profile-reviews?limit=100", as: admin });
    const row = queue.json().reviews.find((r: { user: { _id: string } }) => r.user._id === she.id);
    expect(row.proposed).toEqual({ photoUrl: null, introduction: "夜の遊び相手を探しています" });

    const tables = await snapshotTables(server, ...TABLES);
    const bad = await server.request({
      method: "POST",
      url: `/api/admin/profile-reviews/${row._id}/reject`,
      as: admin,
      payload: { reason: "other" },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ message: MSG.profileRejectNoteRequired });
    expect(await snapshotTables(server, ...TABLES)).toEqual(tables);

    const reject = await server.request({
      method: "POST",
      url: `/api/admin/profile-reviews/${row._id}/reject`,
      as: admin,
      payload: { reason: "offensive", note: "表現を改めてください" },
    });
    expect(reject.json()).toEqual({ success: true, message: MSG.profileReviewRejected, kind: "introduction" });
    expect(JSON.stringify(await detail())).not.toContain("夜の遊び");
    const me = await server.request({ method: "GET", url: "/api/auth/me", as: she });
    expect(me.json().profileReview.selfIntroduction).toMatchObject({
      status: "rejected",
      reason: "offensive",
      reasonLabel: "公序良俗に反する内容",
      note: "表現を改めてください",
    });
  });

  it("is for administrators: 401 anonymous, 403 members (even with a bad id), 404 an unknown id", async () => {
    const member = await server.createUser();
    expect((await server.request({ method: "GET", url: "/api/admin/profile-reviews" })).statusCode).toBe(401);
    expect((await server.request({ method: "GET", url: "/api/admin/profile-reviews", as: member })).statusCode).toBe(
      403,
    );
    const forbidden = await server.request({
      method: "POST",
      url: "/api/admin/profile-reviews/nope/approve",
      as: member,
    });
    expect(forbidden.statusCode).toBe(403);
    const unknown = await server.request({
      method: "POST",
      url: "/api/admin/profile-reviews/00000000-0000-4000-8000-000000000000/approve",
      as: admin,
    });
    expect(unknown.statusCode).toBe(404);
    const counts = await server.request({ method: "GET", url: "/api/admin/dashboard", as: admin });
    expect(counts.json().waiting.profileReviews).toMatchObject({ capped: false });
  });
});
