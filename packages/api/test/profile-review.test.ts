import { existsSync } from "node:fs";
import { adminAuditLog, mailOutbox, profileReviews, users } from "@enmusubi/db";
import { MSG } from "@enmusubi/shared";
import { and, eq } from "drizzle-orm";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { waitingWork } from "../src/dashboard/figures";
import { MAIL_SUBJECTS } from "../src/mail/templates";
import { photoAwaitingReview } from "../src/photos/service";
import { photoFile, photoName, thumbnailLink } from "../src/photos/storage";
import { approveProfile } from "../src/testing";
import { snapshotTables, type TestUser, useTestApi } from "./helpers";

/**
 * The review of profile photos and 自己紹介 (decision 0044): a member's new photo and
 * changed 自己紹介 are invisible to other members until an administrator approves them.
 */
const api = useTestApi({ uploadsDir: `/tmp/enmusubi-review-test-${process.pid}-${Date.now()}` });
const TABLES = ["users", "profile_reviews", "admin_audit_log", "mail_outbox"];

let colour = 0;
/** A small JPEG of its own colour (each upload a different image). */
async function photo(): Promise<string> {
  colour += 40;
  const bytes = await sharp({
    create: { width: 60, height: 40, channels: 3, background: { r: colour % 255, g: 80, b: 120 } },
  })
    .jpeg()
    .toBuffer();
  return `data:image/jpeg;base64,${bytes.toString("base64")}`;
}

let admin: TestUser;
let viewer: TestUser;
let tagCounter = 0;
const newTag = () => `審${++tagCounter}z${Math.random().toString(36).slice(2, 6)}`;

beforeAll(async () => {
  admin = await api.createUser({ role: "admin" });
  viewer = await api.createUser({ points: 5000 });
});

/** A member with an approved photo (and its stored link). */
async function memberWithPhoto(name: string) {
  const member = await api.createUser({ gender: "female", name });
  await api.caller(member).profile.uploadPhoto({ data: await photo() });
  await approveProfile(api.deps.db, member.id, { uploadsDir: api.deps.uploadsDir });
  const link = (await api.caller(member).profile.me()).photoLink as string;
  return { member, link };
}

const reviewsOf = (userId: string) =>
  api.database.db.select().from(profileReviews).where(eq(profileReviews.userId, userId));
const pendingOf = async (userId: string) => (await reviewsOf(userId)).filter((r) => r.status === "pending");
const queueEntryOf = async (userId: string) =>
  (await api.caller(admin).adminProfileReview.queue({ limit: 100 })).entries.find((e) => e.user.id === userId);

/** What another member is shown of `target`: the search card, the paid detail and the paid enlargement. */
async function seenByOthers(target: TestUser, keyword: string) {
  const me = api.caller(viewer);
  const search = await me.members.search({ keyword });
  const detail = await me.members.viewProfile({ id: target.id });
  const price = await me.members.photoPrice({ id: target.id });
  const enlarged = price.available ? await me.members.viewPhoto({ id: target.id }) : null;
  return {
    card: search.profiles.find((p) => p.id === target.id)?.photoLink ?? null,
    detail: detail.profile.photoLink,
    introduction: detail.profile.selfIntroduction,
    enlarged: enlarged ? photoName(enlarged.url.split("?")[0]) : null,
  };
}

describe("a changed photo", () => {
  it("is invisible to others (card, detail, enlargement) until approved; the owner sees it marked 審査中", async () => {
    const tag = newTag();
    const { member, link: approved } = await memberWithPhoto(`${tag}花子`);
    const { user, submitted } = await api.caller(member).profile.update({ newPhoto: await photo() });
    expect(submitted).toEqual({ photo: true, introduction: false });
    const [pending] = await pendingOf(member.id);
    const newLink = pending?.photoLink as string;
    expect(newLink).toMatch(/^\/uploads\/photos\/[0-9a-f]{32}\.jpg$/);
    expect(newLink).not.toBe(approved);

    // Others: the approved photo everywhere.
    const before = await seenByOthers(member, tag);
    expect(before).toMatchObject({ card: thumbnailLink(approved), detail: thumbnailLink(approved) });
    expect(before.enlarged).toBe(photoName(approved));
    expect(JSON.stringify(before)).not.toContain(photoName(newLink));
    expect(await photoAwaitingReview(api.deps.db, photoName(newLink) as string)).toBe(true);

    // The owner: the approved link kept as photoLink, their new photo as photoUrl, 審査中.
    expect(user.photoLink).toBe(approved);
    expect(user.photoUrl).toContain(photoName(newLink));
    expect(user.review.photo).toMatchObject({ status: "pending" });

    // The queue: the current and the new photo side by side (signed URLs for the administrator).
    const entry = await queueEntryOf(member.id);
    expect(entry).toMatchObject({ kind: "photo", current: { introduction: null }, proposed: { introduction: null } });
    expect(entry?.current.photoUrl).toContain(photoName(approved));
    expect(entry?.proposed.photoUrl).toContain(photoName(newLink));

    await api.caller(admin).adminProfileReview.approve({ id: entry?.id as string });
    const after = await seenByOthers(member, tag);
    expect(after).toMatchObject({ card: thumbnailLink(newLink), detail: thumbnailLink(newLink) });
    expect(after.enlarged).toBe(photoName(newLink));
    // The replaced photo's file is gone; the new one is no longer waiting.
    expect(existsSync(photoFile(api.deps.uploadsDir, approved) ?? "")).toBe(false);
    expect(await photoAwaitingReview(api.deps.db, photoName(newLink) as string)).toBe(false);
    expect((await api.caller(member).profile.me()).review.photo).toMatchObject({ status: "approved" });
  });

  it("of a member without one shows nothing to others until approved: no thumbnail, nothing to enlarge", async () => {
    const tag = newTag();
    const member = await api.createUser({ gender: "female", name: `${tag}写真なし` });
    await api.caller(member).profile.uploadPhoto({ data: await photo() });
    expect(await seenByOthers(member, tag)).toMatchObject({ card: null, detail: null, enlarged: null });
    await expect(api.caller(viewer).members.viewPhoto({ id: member.id })).rejects.toMatchObject({
      message: MSG.photoNone,
    });
    const me = await api.caller(member).profile.me();
    expect(me.photoLink).toBeNull();
    expect(me.photoUrl).toMatch(/sig=/);
  });

  it("rejected: never shown, its file removed, the reason shown to the owner and mailed (without the photo)", async () => {
    const tag = newTag();
    const { member, link: approved } = await memberWithPhoto(`${tag}却下`);
    await api.caller(member).profile.uploadPhoto({ data: await photo() });
    const [pending] = await pendingOf(member.id);
    const mailsBefore = api.mailQueued.count;
    await api.caller(admin).adminProfileReview.reject({ id: pending?.id as string, reason: "photo_unsuitable" });
    expect(existsSync(photoFile(api.deps.uploadsDir, pending?.photoLink) ?? "")).toBe(false);
    expect(existsSync(photoFile(api.deps.uploadsDir, approved) ?? "")).toBe(true);
    const seen = await seenByOthers(member, tag);
    expect(seen).toMatchObject({ card: thumbnailLink(approved), enlarged: photoName(approved) });

    const me = await api.caller(member).profile.me();
    expect(me.review.photo).toMatchObject({
      status: "rejected",
      reason: "photo_unsuitable",
      reasonLabel: "顔がはっきり写っていない写真・他人の写真",
    });
    expect(me.photoUrl).toContain(photoName(approved));
    const [user] = await api.database.db.select().from(users).where(eq(users.id, member.id));
    const mails = await api.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.to, user?.email as string));
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ subject: MAIL_SUBJECTS.profileRejected });
    expect(mails[0]?.text).toContain("顔がはっきり写っていない写真・他人の写真");
    expect(mails[0]?.text).not.toContain(photoName(pending?.photoLink) as string);
    expect(api.mailQueued.count).toBe(mailsBefore + 1);
    const [audit] = await api.database.db
      .select()
      .from(adminAuditLog)
      .where(and(eq(adminAuditLog.targetId, member.id), eq(adminAuditLog.action, "profile_review.reject")));
    expect(audit).toMatchObject({ adminId: admin.id, details: { reviewId: pending?.id, reason: "photo_unsuitable" } });

    // A new change ends the rejection notice: it waits again.
    await api.caller(member).profile.uploadPhoto({ data: await photo() });
    expect((await api.caller(member).profile.me()).review.photo).toMatchObject({ status: "pending" });
  });

  it("replaced while pending: the older one is withdrawn with its file, and can no longer be approved", async () => {
    const member = await api.createUser();
    await api.caller(member).profile.uploadPhoto({ data: await photo() });
    const [first] = await pendingOf(member.id);
    await api.caller(member).profile.uploadPhoto({ data: await photo() });
    const pending = await pendingOf(member.id);
    expect(pending).toHaveLength(1);
    expect(pending[0]?.id).not.toBe(first?.id);
    expect(existsSync(photoFile(api.deps.uploadsDir, first?.photoLink) ?? "")).toBe(false);
    const before = await snapshotTables(api, ...TABLES);
    await expect(api.caller(admin).adminProfileReview.approve({ id: first?.id as string })).rejects.toMatchObject({
      code: "CONFLICT",
      message: MSG.profileReviewAlreadyDecided,
    });
    expect(await snapshotTables(api, ...TABLES)).toEqual(before);
  });

  it("cleared needs no review: the approved and the pending photo both go at once", async () => {
    const { member, link } = await memberWithPhoto("消す人");
    await api.caller(member).profile.uploadPhoto({ data: await photo() });
    const [pending] = await pendingOf(member.id);
    const me = await api.caller(member).profile.removePhoto();
    expect(me).toMatchObject({ photoLink: null, photoUrl: null, review: { photo: null } });
    expect(await pendingOf(member.id)).toHaveLength(0);
    for (const file of [link, pending?.photoLink]) {
      expect(existsSync(photoFile(api.deps.uploadsDir, file) ?? "")).toBe(false);
    }
  });
});

describe("a changed 自己紹介", () => {
  it("is invisible to others (detail, search words) until approved; the owner sees theirs 審査中", async () => {
    const tag = newTag();
    const member = await api.createUser({ gender: "female", name: `${tag}紹介` });
    await api.caller(member).profile.update({ selfIntroduction: "はじめまして。" });
    await approveProfile(api.deps.db, member.id);
    const word = `猫${Math.random().toString(36).slice(2, 6)}`;
    const { user, submitted } = await api.caller(member).profile.update({ selfIntroduction: `${word}が好きです。` });
    expect(submitted).toEqual({ photo: false, introduction: true });
    expect(user).toMatchObject({
      selfIntroduction: `${word}が好きです。`,
      review: { introduction: { status: "pending" } },
    });

    expect((await seenByOthers(member, tag)).introduction).toBe("はじめまして。");
    // The profile search indexes the approved text only.
    expect((await api.caller(viewer).members.search({ keyword: word })).profiles).toHaveLength(0);
    const entry = await queueEntryOf(member.id);
    expect(entry).toMatchObject({
      kind: "introduction",
      current: { introduction: "はじめまして。", photoUrl: null },
      proposed: { introduction: `${word}が好きです。`, photoUrl: null },
    });

    // Sent back unchanged (the edit form saves every field): still one change waiting, not a new one.
    await api.caller(member).profile.update({ name: "名前だけ", selfIntroduction: `${word}が好きです。` });
    expect((await pendingOf(member.id)).map((r) => r.id)).toEqual([entry?.id]);

    await api.caller(admin).adminProfileReview.approve({ id: entry?.id as string });
    expect((await seenByOthers(member, tag)).introduction).toBe(`${word}が好きです。`);
    expect((await api.caller(viewer).members.search({ keyword: word })).profiles.map((p) => p.id)).toEqual([member.id]);
  });

  it("rejected: never shown; the owner keeps the reason and note until they change it again", async () => {
    const tag = newTag();
    const member = await api.createUser({ gender: "female", name: `${tag}却下紹介` });
    await api.caller(member).profile.update({ selfIntroduction: "LINEはabc123です" });
    const [pending] = await pendingOf(member.id);
    await api.caller(admin).adminProfileReview.reject({
      id: pending?.id as string,
      reason: "contact_details",
      note: "連絡先は書けません",
    });
    expect((await seenByOthers(member, tag)).introduction).toBe("");
    const me = await api.caller(member).profile.me();
    expect(me.selfIntroduction).toBe("");
    expect(me.review.introduction).toMatchObject({
      status: "rejected",
      reasonLabel: "連絡先・外部サービスの記載",
      note: "連絡先は書けません",
    });
    // Saving the form unchanged keeps the notice; clearing or a new text ends it.
    await api.caller(member).profile.update({ name: "そのまま", selfIntroduction: "" });
    expect((await api.caller(member).profile.me()).review.introduction).toBeNull();
  });

  it("going back to the approved text withdraws the change waiting", async () => {
    const member = await api.createUser();
    await api.caller(member).profile.update({ selfIntroduction: "元の紹介" });
    await approveProfile(api.deps.db, member.id);
    await api.caller(member).profile.update({ selfIntroduction: "新しい紹介" });
    await api.caller(member).profile.update({ selfIntroduction: "元の紹介" });
    expect(await pendingOf(member.id)).toHaveLength(0);
    expect((await api.caller(member).profile.me()).review.introduction).toBeNull();
  });
});

describe("deciding", () => {
  it("once: approving twice (or rejecting after) is refused, with one decision and one audit row", async () => {
    const member = await api.createUser();
    await api.caller(member).profile.update({ selfIntroduction: "一度だけ" });
    const [pending] = await pendingOf(member.id);
    const id = pending?.id as string;
    const results = await Promise.allSettled([
      api.caller(admin).adminProfileReview.approve({ id }),
      api.caller(admin).adminProfileReview.approve({ id }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const before = await snapshotTables(api, ...TABLES);
    await expect(api.caller(admin).adminProfileReview.approve({ id })).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(api.caller(admin).adminProfileReview.reject({ id, reason: "offensive" })).rejects.toMatchObject({
      code: "CONFLICT",
    });
    expect(await snapshotTables(api, ...TABLES)).toEqual(before);
    const audits = await api.database.db
      .select()
      .from(adminAuditLog)
      .where(and(eq(adminAuditLog.targetId, member.id), eq(adminAuditLog.action, "profile_review.approve")));
    expect(audits).toHaveLength(1);
  });

  it("refuses a bad rejection with a Japanese message and changes nothing; unknown ids are NOT_FOUND", async () => {
    const member = await api.createUser();
    await api.caller(member).profile.update({ selfIntroduction: "理由の確認" });
    const [pending] = await pendingOf(member.id);
    const id = pending?.id as string;
    const before = await snapshotTables(api, ...TABLES);
    const caller = api.caller(admin).adminProfileReview;
    await expect(caller.reject({ id, reason: "other" })).rejects.toMatchObject({
      message: MSG.profileRejectNoteRequired,
    });
    await expect(caller.reject({ id, reason: "nope" as "other", note: "x" })).rejects.toMatchObject({
      message: MSG.profileRejectReasonRequired,
    });
    await expect(caller.reject({ id, reason: "other", note: "あ".repeat(501) })).rejects.toMatchObject({
      message: MSG.profileRejectNoteTooLong,
    });
    await expect(caller.approve({ id: "00000000-0000-4000-8000-000000000000" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    expect(await snapshotTables(api, ...TABLES)).toEqual(before);
  });

  it("is for administrators: members are FORBIDDEN (before their input is looked at), anonymous UNAUTHORIZED", async () => {
    const member = await api.createUser();
    for (const call of [
      () => api.caller(member).adminProfileReview.queue({}),
      () => api.caller(member).adminProfileReview.approve({ id: "not-a-uuid" }),
      () => api.caller(member).adminProfileReview.reject({ id: "x", reason: "x" as "other" }),
    ]) {
      await expect(call()).rejects.toMatchObject({ code: "FORBIDDEN" });
    }
    await expect(api.caller(null).adminProfileReview.queue({})).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("counts the changes waiting in 対応待ち, oldest first in the queue", async () => {
    const before = (await waitingWork(api.deps.db)).profileReviews.value;
    const first = await api.createUser();
    const second = await api.createUser();
    await api.caller(first).profile.update({ selfIntroduction: "先" });
    await api.caller(second).profile.update({ selfIntroduction: "後" });
    expect((await api.caller(admin).adminDashboard.waiting()).profileReviews.value).toBe(before + 2);
    const ids = (await api.caller(admin).adminProfileReview.queue({ limit: 100 })).entries.map((e) => e.user.id);
    expect(ids.indexOf(first.id)).toBeLessThan(ids.indexOf(second.id));
  });
});

describe("no review needed", () => {
  it("for an administrator's own profile, and for an administrator's edit of a member", async () => {
    const other = await api.createUser({ role: "admin" });
    const { user, submitted } = await api.caller(other).profile.update({
      selfIntroduction: "管理者です",
      newPhoto: await photo(),
    });
    expect(submitted).toEqual({ photo: false, introduction: false });
    expect(user.photoLink).toMatch(/^\/uploads\/photos\//);
    expect(await reviewsOf(other.id)).toHaveLength(0);

    const member = await api.createUser();
    const set = await api.caller(admin).photos.adminUpload({ userId: member.id, data: await photo() });
    const [row] = await api.database.db.select().from(users).where(eq(users.id, member.id));
    expect(row?.photoLink).toBe(set.photoLink);
    expect(await reviewsOf(member.id)).toHaveLength(0);
  });

  it("a deleted member's changes waiting are withdrawn with their files", async () => {
    const member = await api.createUser();
    await api.caller(member).profile.uploadPhoto({ data: await photo() });
    const [pending] = await pendingOf(member.id);
    await api.caller(admin).adminUsers.delete({ id: member.id });
    expect(await pendingOf(member.id)).toHaveLength(0);
    expect(existsSync(photoFile(api.deps.uploadsDir, pending?.photoLink) ?? "")).toBe(false);
  });
});
