import { existsSync } from "node:fs";
import { readdir, readFile, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { adminAuditLog, idVerifications, mailOutbox, users } from "@enmusubi/db";
import { MSG } from "@enmusubi/shared";
import { and, eq } from "drizzle-orm";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { backgroundJobs } from "../src/jobs";
import { MAIL_SUBJECTS } from "../src/mail/templates";
import { EXPIRED_REASON, expireIdImages } from "../src/verification/service";
import { idImagesDir } from "../src/verification/storage";
import { snapshotTables, type TestUser, useTestApi } from "./helpers";

/**
 * Age verification flow (decision 0006): submission through the photo pipeline into the private
 * directory, the administrators' queue and image, approve / reject (one transaction, audited,
 * mailed, image deleted), and the 24-hour deletion job.
 */

const root = `/tmp/enmusubi-verification-test-${process.pid}`;
const api = useTestApi({ uploadsDir: `${root}/uploads` });
const dir = idImagesDir(`${root}/uploads`);

let admin: TestUser;
let other: TestUser;

/** A phone-like ID photo: JPEG with EXIF carrying a camera make and a GPS position. */
async function idPhoto(): Promise<string> {
  const bytes = await sharp({ create: { width: 1200, height: 800, channels: 3, background: "#3a6" } })
    .jpeg()
    .withExif({
      IFD0: { Make: "TestPhone" },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "35/1 41/1 0/1", GPSLongitudeRef: "E", GPSLongitude: "139/1 41/1 0/1" },
    })
    .toBuffer();
  return `data:image/jpeg;base64,${bytes.toString("base64")}`;
}

const files = async () => (await readdir(dir).catch(() => [] as string[])).sort();
const rowOf = async (id: string) =>
  (await api.database.db.select().from(idVerifications).where(eq(idVerifications.id, id)))[0];
const standing = async (id: string) =>
  (await api.database.db.select({ s: users.verificationStatus }).from(users).where(eq(users.id, id)))[0]?.s;
const mailsTo = async (userId: string) => {
  const [user] = await api.database.db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return api.database.db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.to, user?.email ?? ""));
};

beforeAll(async () => {
  admin = await api.createUser({ role: "admin", name: "審査担当" });
  // A verified member: the one others write to (a member who cannot read is not written to, decision 0025).
  other = await api.createUser();
});

describe("submission", () => {
  it("stores the cleaned image privately and sets the status pending; pending cannot submit again", async () => {
    const member = await api.createUser({ verificationStatus: "unverified", birthday: "1990-05-01" });
    expect(await api.caller(member).verification.status()).toMatchObject({
      status: "unverified",
      rejectReason: null,
      submittedAt: null,
    });
    const result = await api.caller(member).verification.submit({ image: await idPhoto() });
    expect(result.status).toBe("pending");
    const row = await rowOf(result.id);
    expect(row).toMatchObject({ userId: member.id, status: "pending", imageDeletedAt: null });
    // Outside the public uploads directory, metadata stripped.
    expect(dir.startsWith(path.join(root, "private"))).toBe(true);
    const stored = await readFile(path.join(dir, row?.imagePath ?? "none"));
    const meta = await sharp(stored).metadata();
    expect(meta.format).toBe("jpeg");
    expect(meta.exif).toBeUndefined();
    expect(existsSync(path.join(root, "uploads", row?.imagePath ?? "none"))).toBe(false);
    expect(await api.caller(member).verification.status()).toMatchObject({ status: "pending" });

    const before = await snapshotTables(api, "id_verifications", "users");
    const filesBefore = await files();
    await expect(api.caller(member).verification.submit({ image: await idPhoto() })).rejects.toMatchObject({
      code: "CONFLICT",
      message: MSG.verificationAlreadyPending,
    });
    expect(await snapshotTables(api, "id_verifications", "users")).toEqual(before);
    expect(await files()).toEqual(filesBefore);
  });

  it("refuses what is not an image, a verified member and administrators, changing nothing", async () => {
    const member = await api.createUser({ verificationStatus: "unverified" });
    const verified = await api.createUser();
    const before = await snapshotTables(api, "id_verifications", "users");
    const filesBefore = await files();
    for (const [image, message] of [
      ["", MSG.imageOnly],
      [Buffer.from("not an image at all").toString("base64"), MSG.imageOnly],
    ] as const) {
      await expect(api.caller(member).verification.submit({ image })).rejects.toMatchObject({
        code: "BAD_REQUEST",
        message,
      });
    }
    await expect(api.caller(verified).verification.submit({ image: await idPhoto() })).rejects.toMatchObject({
      code: "CONFLICT",
      message: MSG.verificationAlreadyDone,
    });
    await expect(api.caller(admin).verification.submit({ image: await idPhoto() })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(api.caller(null).verification.submit({ image: await idPhoto() })).rejects.toMatchObject({
      code: "UNAUTHORIZED",
    });
    expect(await snapshotTables(api, "id_verifications", "users")).toEqual(before);
    expect(await files()).toEqual(filesBefore);
  });

  it("two submissions at once: one is stored, the other refused, one file kept", async () => {
    const member = await api.createUser({ verificationStatus: "unverified" });
    const image = await idPhoto();
    const filesBefore = (await files()).length;
    const results = await Promise.allSettled([
      api.caller(member).verification.submit({ image }),
      api.caller(member).verification.submit({ image }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(results.find((r) => r.status === "rejected")).toMatchObject({
      reason: { code: "CONFLICT", message: MSG.verificationAlreadyPending },
    });
    expect((await files()).length).toBe(filesBefore + 1);
  });
});

describe("review", () => {
  it("the queue lists pending submissions oldest first with the member's age; members cannot see it", async () => {
    const a = await api.createUser({ verificationStatus: "unverified", birthday: "2000-01-15", name: "古い申請" });
    const b = await api.createUser({ verificationStatus: "unverified", name: "新しい申請" });
    const first = await api.caller(a).verification.submit({ image: await idPhoto() });
    const second = await api.caller(b).verification.submit({ image: await idPhoto() });
    const queue = await api.caller(admin).adminVerification.queue({ limit: 100 });
    const ids = queue.entries.map((e) => e.id);
    expect(ids.indexOf(first.id)).toBeLessThan(ids.indexOf(second.id));
    const entry = queue.entries.find((e) => e.id === first.id);
    expect(entry).toMatchObject({ hasImage: true, user: { id: a.id, name: "古い申請", birthday: "2000-01-15" } });
    expect(entry?.user.age).toBeGreaterThanOrEqual(25);
    const paged = await api.caller(admin).adminVerification.queue({ limit: 1, page: 2 });
    expect(paged.entries).toHaveLength(1);
    expect(paged.total).toBe(queue.total);
    for (const user of [a, other]) {
      await expect(api.caller(user).adminVerification.queue({})).rejects.toMatchObject({ code: "FORBIDDEN" });
      await expect(api.caller(user).adminVerification.image({ id: first.id })).rejects.toMatchObject({
        code: "FORBIDDEN",
      });
      await expect(api.caller(user).adminVerification.approve({ id: first.id })).rejects.toMatchObject({
        code: "FORBIDDEN",
      });
    }
    await expect(api.caller(null).adminVerification.image({ id: first.id })).rejects.toMatchObject({
      code: "UNAUTHORIZED",
    });
    const image = await api.caller(admin).adminVerification.image({ id: first.id });
    expect(image.dataUrl.startsWith("data:image/jpeg;base64,")).toBe(true);
  });

  it("approve: member verified, image deleted at once, audited, mail queued; a second review is CONFLICT", async () => {
    const member = await api.createUser({ verificationStatus: "unverified" });
    const { id } = await api.caller(member).verification.submit({ image: await idPhoto() });
    const file = (await rowOf(id))?.imagePath as string;
    expect((await files()).includes(file)).toBe(true);
    const mailsBefore = api.mailQueued.count;
    await expect(api.caller(admin).adminVerification.approve({ id, birthday: "1990-05-01" })).resolves.toMatchObject({
      status: "verified",
    });
    expect(await standing(member.id)).toBe("verified");
    const row = await rowOf(id);
    expect(row).toMatchObject({ status: "approved", imagePath: null, reviewedBy: admin.id });
    expect(row?.imageDeletedAt).toBeInstanceOf(Date);
    expect((await files()).includes(file)).toBe(false);
    await expect(api.caller(admin).adminVerification.image({ id })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: MSG.verificationImageGone,
    });
    const audit = await api.database.db
      .select()
      .from(adminAuditLog)
      .where(and(eq(adminAuditLog.targetId, member.id), eq(adminAuditLog.action, "verification.approve")));
    expect(audit).toHaveLength(1);
    expect(audit[0]?.details).toMatchObject({
      verificationStatus: { from: "pending", to: "verified" },
      birthdayChecked: "1990-05-01",
      birthday: { from: null, to: "1990-05-01" },
    });
    const mails = await mailsTo(member.id);
    expect(mails.map((m) => m.subject)).toContain(MAIL_SUBJECTS.verificationApproved);
    expect(api.mailQueued.count).toBe(mailsBefore + 1);
    // The log never carries the image: neither the audit row nor the mail holds any of it.
    expect(JSON.stringify(audit)).not.toContain("base64");
    const before = await snapshotTables(api, "id_verifications", "users", "admin_audit_log", "mail_outbox");
    await expect(api.caller(admin).adminVerification.reject({ id, reason: "遅れて却下" })).rejects.toMatchObject({
      code: "CONFLICT",
      message: MSG.verificationAlreadyReviewed,
    });
    expect(await snapshotTables(api, "id_verifications", "users", "admin_audit_log", "mail_outbox")).toEqual(before);
    // And the member may now send.
    await expect(
      api.caller(member).messages.send({ recipientIds: [other.id], body: "よろしくお願いします" }),
    ).resolves.toMatchObject({ sent: 1 });
  });

  it("reject: reason required and bounded; the member sees it, is mailed, and may submit again", async () => {
    const member = await api.createUser({ verificationStatus: "unverified" });
    const { id } = await api.caller(member).verification.submit({ image: await idPhoto() });
    const before = await snapshotTables(api, "id_verifications", "users", "admin_audit_log", "mail_outbox");
    for (const [reason, message] of [
      ["   ", MSG.rejectReasonRequired],
      ["x".repeat(501), MSG.rejectReasonTooLong],
    ] as const) {
      await expect(api.caller(admin).adminVerification.reject({ id, reason })).rejects.toMatchObject({
        code: "BAD_REQUEST",
        message,
      });
    }
    await expect(
      api.caller(admin).adminVerification.reject({ id: "00000000-0000-4000-8000-000000000000", reason: "理由" }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await snapshotTables(api, "id_verifications", "users", "admin_audit_log", "mail_outbox")).toEqual(before);

    await api.caller(admin).adminVerification.reject({ id, reason: "  生年月日が読み取れませんでした。  " });
    expect(await api.caller(member).verification.status()).toMatchObject({
      status: "rejected",
      rejectReason: "生年月日が読み取れませんでした。",
    });
    expect(await rowOf(id)).toMatchObject({ status: "rejected", imagePath: null });
    const mail = (await mailsTo(member.id)).find((m) => m.subject === MAIL_SUBJECTS.verificationRejected);
    expect(mail?.text).toContain("生年月日が読み取れませんでした。");
    // Still refused until verified.
    await expect(
      api.caller(member).messages.send({ recipientIds: [other.id], body: "こんにちは" }),
    ).rejects.toMatchObject({ code: "FORBIDDEN", message: MSG.verificationRequired });
    const again = await api.caller(member).verification.submit({ image: await idPhoto() });
    expect(again.status).toBe("pending");
    expect(await api.caller(member).verification.status()).toMatchObject({ status: "pending", rejectReason: null });
  });
});

describe("the 24-hour deletion", () => {
  it("deletes every image older than 24 hours whatever its state, rejects the still-pending ones, mails them", async () => {
    const waiting = await api.createUser({ verificationStatus: "unverified" });
    const fresh = await api.createUser({ verificationStatus: "unverified" });
    const old = await api.caller(waiting).verification.submit({ image: await idPhoto() });
    const recent = await api.caller(fresh).verification.submit({ image: await idPhoto() });
    const oldFile = (await rowOf(old.id))?.imagePath as string;
    const recentFile = (await rowOf(recent.id))?.imagePath as string;
    // A file left without a row (a submission whose transaction failed), older than a day.
    const stray = "0123456789abcdef0123456789abcdef.jpg";
    await writeFile(path.join(dir, stray), "x");
    const dayAgo = new Date(Date.now() - 25 * 60 * 60 * 1000);
    await utimes(path.join(dir, stray), dayAgo, dayAgo);

    // Nothing is due yet.
    const early = await expireIdImages(api.deps);
    expect(early.expiredPending).toBe(0);
    expect(await files()).toEqual(expect.arrayContaining([oldFile, recentFile]));
    expect(await files()).not.toContain(stray);

    // A day later (the clock moved on, the file too): the old one goes, the recent one stays.
    await api.database.db.update(idVerifications).set({ createdAt: dayAgo }).where(eq(idVerifications.id, old.id));
    await utimes(path.join(dir, oldFile), dayAgo, dayAgo);
    const run = await expireIdImages(api.deps);
    expect(run.expiredPending).toBe(1);
    expect(await files()).not.toContain(oldFile);
    expect(await files()).toContain(recentFile);
    expect(await rowOf(old.id)).toMatchObject({ imagePath: null, status: "rejected", rejectReason: EXPIRED_REASON });
    expect((await rowOf(old.id))?.imageDeletedAt).toBeInstanceOf(Date);
    expect(await rowOf(recent.id)).toMatchObject({ status: "pending", imagePath: recentFile });
    expect(await api.caller(waiting).verification.status()).toMatchObject({
      status: "rejected",
      rejectReason: EXPIRED_REASON,
    });
    expect((await mailsTo(waiting.id)).map((m) => m.subject)).toContain(MAIL_SUBJECTS.verificationRejected);
    await expect(api.caller(admin).adminVerification.image({ id: old.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });

    // A fake clock 25 hours ahead: the recent one goes too; nothing is left older than a day.
    await utimes(path.join(dir, recentFile), dayAgo, dayAgo);
    await expireIdImages(api.deps, new Date(Date.now() + 25 * 60 * 60 * 1000));
    expect(await files()).not.toContain(recentFile);
    expect(await rowOf(recent.id)).toMatchObject({ imagePath: null, status: "rejected" });
  });

  it("is registered with the other domains' jobs", () => {
    expect(backgroundJobs.map((j) => j.name)).toContain("id-image-expiry");
  });
});
