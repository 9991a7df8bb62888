import { existsSync, utimesSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { adminAuditLog, profileReviews, users } from "@enmusubi/db";
import { MSG } from "@enmusubi/shared";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { sweepOrphanPhotos } from "../src/photos/service";
import { photoFile } from "../src/photos/storage";
import { approveProfile } from "../src/testing";
import { snapshotTables, type TestUser, useTestApi } from "./helpers";

const api = useTestApi({ uploadsDir: `/tmp/enmusubi-photo-test-${process.pid}-${Date.now()}` });
let admin: TestUser;
let member: TestUser;

/** A phone-like photo: 3000 × 1000 JPEG carrying EXIF with a camera make and a GPS position. */
async function phonePhoto(): Promise<Buffer> {
  return sharp({ create: { width: 3000, height: 1000, channels: 3, background: "#c33" } })
    .jpeg()
    .withExif({
      IFD0: { Make: "TestPhone" },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "35/1 41/1 0/1", GPSLongitudeRef: "E", GPSLongitude: "139/1 41/1 0/1" },
    })
    .toBuffer();
}
const dataUrl = (bytes: Buffer, type = "image/jpeg") => `data:${type};base64,${bytes.toString("base64")}`;
const hasGpsPointer = (exif: Buffer) =>
  exif.includes(Buffer.from([0x88, 0x25])) || exif.includes(Buffer.from([0x25, 0x88]));

/** A member's own photo upload, approved in the profile review (decision 0044): answers the own view. */
async function uploadApproved(user: TestUser, data: string) {
  await api.caller(user).profile.uploadPhoto({ data });
  await approveProfile(api.deps.db, user.id, { uploadsDir: api.deps.uploadsDir });
  return api.caller(user).profile.me();
}

async function storedFiles(): Promise<string[]> {
  const dir = path.join(api.deps.uploadsDir, "photos");
  return existsSync(dir) ? readdir(dir) : [];
}

beforeAll(async () => {
  admin = await api.createUser({ role: "admin" });
  member = await api.createUser();
});

describe("photos.upload", () => {
  it("strips every piece of metadata (EXIF GPS included), fits 2048 px and stores under a random name", async () => {
    const original = await phonePhoto();
    const originalMeta = await sharp(original).metadata();
    expect(originalMeta.exif && hasGpsPointer(originalMeta.exif)).toBe(true);

    const me = await uploadApproved(member, dataUrl(original));
    expect(me.photoLink).toMatch(/^\/uploads\/photos\/[0-9a-f]{32}\.jpg$/);
    const file = photoFile(api.deps.uploadsDir, me.photoLink);
    if (!file) throw new Error("no stored file");
    const stored = await readFile(file);
    const meta = await sharp(stored).metadata();
    expect(meta).toMatchObject({ format: "jpeg", width: 2048, height: 683 });
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(meta.icc).toBeUndefined();
    expect(stored.includes(Buffer.from("TestPhone"))).toBe(false);
    expect(stored.includes(Buffer.from("Exif\0"))).toBe(false);
  });

  it("accepts PNG and bare base64, and a replacement removes the old file", async () => {
    const before = (await api.caller(member).profile.me()).photoLink;
    const png = await sharp({ create: { width: 40, height: 30, channels: 4, background: "#0000ff80" } })
      .png()
      .toBuffer();
    const me = await uploadApproved(member, png.toString("base64"));
    expect(me.photoLink).not.toBe(before);
    expect(existsSync(photoFile(api.deps.uploadsDir, me.photoLink) ?? "")).toBe(true);
    expect(existsSync(photoFile(api.deps.uploadsDir, before) ?? "")).toBe(false);
    expect((await sharp(await readFile(photoFile(api.deps.uploadsDir, me.photoLink) ?? "")).metadata()).width).toBe(40);
  });

  it("refuses text, a truncated image and an empty body with a clear message; nothing changes", async () => {
    const tables = await snapshotTables(api, "users", "profile_reviews", "admin_audit_log");
    const files = await storedFiles();
    const caller = api.caller(member);
    await expect(
      caller.profile.uploadPhoto({ data: dataUrl(Buffer.from("hello, not an image"), "image/png") }),
    ).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: MSG.imageOnly,
    });
    const broken = (await phonePhoto()).subarray(0, 400);
    await expect(caller.profile.uploadPhoto({ data: dataUrl(broken) })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(caller.profile.uploadPhoto({ data: "" })).rejects.toMatchObject({ message: MSG.imageOnly });
    await expect(caller.profile.uploadPhoto({ data: "x".repeat(15 * 1024 * 1024) })).rejects.toMatchObject({
      message: MSG.imageTooLarge,
    });
    expect(await snapshotTables(api, "users", "profile_reviews", "admin_audit_log")).toEqual(tables);
    expect(await storedFiles()).toEqual(files);
  });

  it("anonymous callers are refused", async () => {
    await expect(api.caller(null).profile.uploadPhoto({ data: "abc" })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(api.caller(null).profile.removePhoto()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});

describe("photos.remove and profile links", () => {
  it("remove clears the link and deletes the file", async () => {
    const user = await api.createUser();
    const { photoLink } = await uploadApproved(user, dataUrl(await phonePhoto()));
    const me = await api.caller(user).profile.removePhoto();
    expect(me.photoLink).toBeNull();
    expect(existsSync(photoFile(api.deps.uploadsDir, photoLink) ?? "")).toBe(false);
  });

  it("a member cannot point the profile at another member's file; keeping or clearing works", async () => {
    const owner = await api.createUser();
    const other = await api.createUser();
    const { photoLink } = await uploadApproved(owner, dataUrl(await phonePhoto()));
    if (!photoLink) throw new Error("no link");
    const before = await snapshotTables(api, "users");
    await expect(api.caller(other).profile.update({ photoLink })).rejects.toMatchObject({
      message: MSG.photoLinkInvalid,
    });
    expect(await snapshotTables(api, "users")).toEqual(before);
    await api.caller(owner).profile.update({ name: "同じ写真", photoLink });
    expect(existsSync(photoFile(api.deps.uploadsDir, photoLink) ?? "")).toBe(true);
    await api.caller(owner).profile.update({ photoLink: "" });
    expect(existsSync(photoFile(api.deps.uploadsDir, photoLink) ?? "")).toBe(false);
  });
});

describe("photos.adminUpload", () => {
  it("stores a draft photo for a new user, or sets a member's photo with an audit entry", async () => {
    const caller = api.caller(admin);
    const draft = await caller.photos.adminUpload({ data: dataUrl(await phonePhoto()) });
    expect(existsSync(photoFile(api.deps.uploadsDir, draft.photoLink) ?? "")).toBe(true);

    const target = await api.createUser();
    const set = await caller.photos.adminUpload({ userId: target.id, data: dataUrl(await phonePhoto()) });
    const [row] = await api.database.db.select().from(users).where(eq(users.id, target.id));
    expect(row?.photoLink).toBe(set.photoLink);
    const audit = await api.database.db.select().from(adminAuditLog).where(eq(adminAuditLog.targetId, target.id));
    expect(audit).toMatchObject([{ action: "user.photo", adminId: admin.id }]);

    // Replacing it through the edit form removes the old file.
    await caller.adminUsers.update({
      id: target.id,
      name: "x",
      email: `${target.userID}@example.jp`,
      photoLink: draft.photoLink,
    });
    expect(existsSync(photoFile(api.deps.uploadsDir, set.photoLink) ?? "")).toBe(false);
  });

  it("members get FORBIDDEN; an unknown member is NOT_FOUND and leaves no file behind", async () => {
    await expect(api.caller(member).photos.adminUpload({ data: "abc" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    const files = await storedFiles();
    await expect(
      api.caller(admin).photos.adminUpload({
        userId: "00000000-0000-4000-8000-000000000000",
        data: dataUrl(await phonePhoto()),
      }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await storedFiles()).toEqual(files);
  });
});

describe("sweepOrphanPhotos", () => {
  it("removes old files no account uses and keeps used or recent ones", async () => {
    const caller = api.caller(admin);
    const abandoned = await caller.photos.adminUpload({ data: dataUrl(await phonePhoto()) });
    const fresh = await caller.photos.adminUpload({ data: dataUrl(await phonePhoto()) });
    const user = await api.createUser();
    const used = await uploadApproved(user, dataUrl(await phonePhoto()));
    // A photo waiting for the review is in use too, however old (decision 0044).
    const waiting = await api.createUser();
    await api.caller(waiting).profile.uploadPhoto({ data: dataUrl(await phonePhoto()) });
    const [review] = await api.database.db
      .select({ photoLink: profileReviews.photoLink })
      .from(profileReviews)
      .where(eq(profileReviews.userId, waiting.id));
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
    for (const link of [abandoned.photoLink, used.photoLink, review?.photoLink ?? null]) {
      utimesSync(photoFile(api.deps.uploadsDir, link) ?? "", twoDaysAgo, twoDaysAgo);
    }
    expect(await sweepOrphanPhotos(api.deps)).toBeGreaterThanOrEqual(1);
    expect(existsSync(photoFile(api.deps.uploadsDir, abandoned.photoLink) ?? "")).toBe(false);
    expect(existsSync(photoFile(api.deps.uploadsDir, fresh.photoLink) ?? "")).toBe(true);
    expect(existsSync(photoFile(api.deps.uploadsDir, used.photoLink) ?? "")).toBe(true);
    expect(existsSync(photoFile(api.deps.uploadsDir, review?.photoLink) ?? "")).toBe(true);
  });
});
