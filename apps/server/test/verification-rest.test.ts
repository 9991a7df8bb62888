import { existsSync, mkdtempSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createTestAccount } from "@enmusubi/api/testing";
import { users } from "@enmusubi/db";
import { openTestDatabase } from "@enmusubi/db/testing";
import { MSG } from "@enmusubi/shared";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { buildApp } from "../src/app";
import { loadConfig } from "../src/config";
import { type RestUser, snapshotTables, testPasswords, useTestServer } from "./helpers";

/**
 * Age verification over HTTP (decision 0006): the ID image is reachable only through the
 * administrators' row (no-store), never by a public path; it is gone after review; the message
 * rows apply the same lock as tRPC.
 */

const server = useTestServer();
let admin: RestUser;
let member: RestUser;
let stranger: RestUser;
let peer: RestUser;

async function idPhoto(): Promise<string> {
  const bytes = await sharp({ create: { width: 640, height: 400, channels: 3, background: "#36a" } })
    .jpeg()
    .withExif({ IFD3: { GPSLatitudeRef: "N", GPSLatitude: "35/1 41/1 0/1" } })
    .toBuffer();
  return `data:image/jpeg;base64,${bytes.toString("base64")}`;
}

const idDir = () => path.join(server.config.dataDir, "private", "id-images");

beforeAll(async () => {
  admin = await server.createUser({ role: "admin" });
  member = await server.createUser({ verificationStatus: "unverified" });
  stranger = await server.createUser({ verificationStatus: "unverified" });
  peer = await server.createUser({ points: 1000 });
});

async function submissionOf(user: RestUser): Promise<string> {
  const queue = await server.request({ method: "GET", url: "/api/admin/verifications?limit=100", as: admin });
  expect(queue.statusCode).toBe(200);
  const entry = queue
    .json<{ verifications: Array<{ _id: string; user: { _id: string } }> }>()
    .verifications.find((v) => v.user._id === user.id);
  if (!entry) throw new Error("submission not in the queue");
  return entry._id;
}

describe("the ID image", () => {
  it("is stored privately and reachable only by administrators, with no-store", async () => {
    const submit = await server.request({
      method: "POST",
      url: "/api/verification",
      as: member,
      payload: { image: await idPhoto() },
    });
    expect(submit.statusCode).toBe(201);
    expect(submit.json()).toMatchObject({ status: "pending", message: MSG.verificationSubmitted });
    const status = await server.request({ method: "GET", url: "/api/verification", as: member });
    expect(status.json()).toMatchObject({ status: "pending", rejectReason: null });

    const [name] = await readdir(idDir());
    expect(name).toMatch(/^[0-9a-f]{32}\.jpg$/);
    expect(existsSync(path.join(server.config.dataDir, "uploads", name as string))).toBe(false);
    // No public path leads to it.
    for (const url of [
      `/uploads/${name}`,
      `/uploads/photos/${name}`,
      `/uploads/../private/id-images/${name}`,
      `/uploads/%2e%2e/private/id-images/${name}`,
      `/private/id-images/${name}`,
      `/id-images/${name}`,
    ]) {
      const res = await server.app.inject({ method: "GET", url });
      expect([400, 403, 404], url).toContain(res.statusCode);
      expect(res.headers["content-type"] ?? "", url).not.toContain("image/");
    }

    const id = await submissionOf(member);
    const url = `/api/admin/verifications/${id}/image`;
    expect((await server.request({ method: "GET", url })).statusCode).toBe(401);
    for (const who of [member, stranger, peer]) {
      const res = await server.request({ method: "GET", url, as: who });
      expect(res.statusCode).toBe(403);
    }
    const image = await server.request({ method: "GET", url, as: admin });
    expect(image.statusCode).toBe(200);
    expect(image.headers["cache-control"]).toBe("no-store");
    const dataUrl = image.json<{ image: string }>().image;
    const meta = await sharp(Buffer.from(dataUrl.split(",")[1] as string, "base64")).metadata();
    expect(meta).toMatchObject({ format: "jpeg", width: 640, height: 400 });
    expect(meta.exif).toBeUndefined();
    // Members cannot list the queue, approve or reject.
    for (const [method, path] of [
      ["GET", "/api/admin/verifications"],
      ["POST", `/api/admin/verifications/${id}/approve`],
    ] as const) {
      expect((await server.request({ method, url: path, as: member })).statusCode).toBe(403);
    }
  });

  it("is gone once approved; the member is verified and may send", async () => {
    const id = await submissionOf(member);
    const url = `/api/admin/verifications/${id}/approve`;
    // The member registered no birth date: the approval needs the one read from the ID (decision 0043).
    const before = await snapshotTables(server, "users", "id_verifications", "admin_audit_log", "mail_outbox");
    const unknown = await server.request({ method: "POST", url, as: admin });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ message: MSG.idBirthdayRequired });
    expect(await snapshotTables(server, "users", "id_verifications", "admin_audit_log", "mail_outbox")).toEqual(before);
    const approve = await server.request({ method: "POST", url, as: admin, payload: { birthday: "1994-06-30" } });
    expect(approve.statusCode).toBe(200);
    const [row] = await server.database.db
      .select({ birthday: users.birthday })
      .from(users)
      .where(eq(users.id, member.id));
    expect(row?.birthday).toBe("1994-06-30");
    expect(approve.json()).toMatchObject({ status: "verified", message: MSG.verificationApproved });
    expect(await readdir(idDir())).toEqual([]);
    const image = await server.request({ method: "GET", url: `/api/admin/verifications/${id}/image`, as: admin });
    expect(image.statusCode).toBe(404);
    expect(image.json()).toEqual({ message: MSG.verificationImageGone });
    const again = await server.request({ method: "POST", url: `/api/admin/verifications/${id}/approve`, as: admin });
    expect(again.statusCode).toBe(409);
    const send = await server.request({
      method: "POST",
      url: `/api/messages/${peer.id}`,
      as: member,
      payload: { content: "はじめまして" },
    });
    expect(send.statusCode).toBe(201);
  });

  it("is gone once rejected; the reason is required and shown to the member", async () => {
    await server.request({
      method: "POST",
      url: "/api/verification",
      as: stranger,
      payload: { image: await idPhoto() },
    });
    const id = await submissionOf(stranger);
    const before = await snapshotTables(server, "id_verifications", "users", "admin_audit_log");
    const empty = await server.request({
      method: "POST",
      url: `/api/admin/verifications/${id}/reject`,
      as: admin,
      payload: { reason: "  " },
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({ message: MSG.rejectReasonRequired });
    expect(await snapshotTables(server, "id_verifications", "users", "admin_audit_log")).toEqual(before);
    const reject = await server.request({
      method: "POST",
      url: `/api/admin/verifications/${id}/reject`,
      as: admin,
      payload: { reason: "画像が不鮮明です。" },
    });
    expect(reject.statusCode).toBe(200);
    expect(await readdir(idDir())).toEqual([]);
    const status = await server.request({ method: "GET", url: "/api/verification", as: stranger });
    expect(status.json()).toMatchObject({ status: "rejected", rejectReason: "画像が不鮮明です。" });
    const pendingAgain = await server.request({
      method: "POST",
      url: "/api/verification",
      as: stranger,
      payload: { image: await idPhoto() },
    });
    expect(pendingAgain.statusCode).toBe(201);
    const conflict = await server.request({
      method: "POST",
      url: "/api/verification",
      as: stranger,
      payload: { image: await idPhoto() },
    });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json()).toEqual({ message: MSG.verificationAlreadyPending });
  });
});

describe("message rows for a member who is not verified", () => {
  it("list other members' messages locked, refuse opening and sending with 403", async () => {
    // Written to while verified, then pending (nobody may write to a member who cannot read, decision 0025).
    const waiting = await server.createUser({ points: 1000 });
    const sent = await server.request({
      method: "POST",
      url: `/api/messages/${waiting.id}`,
      as: peer,
      payload: { content: "ひみつの本文" },
    });
    const messageId = sent.json<{ messageIds: string[] }>().messageIds[0];
    await server.database.db.update(users).set({ verificationStatus: "pending" }).where(eq(users.id, waiting.id));
    const inbox = await server.request({ method: "GET", url: "/api/messages/inbox", as: waiting });
    expect(inbox.statusCode).toBe(200);
    expect(inbox.body).not.toContain("ひみつの本文");
    expect(inbox.json().messages[0]).toMatchObject({ _id: messageId, locked: true, body: MSG.lockedMessageNotice });
    const read = await server.request({ method: "PUT", url: `/api/messages/${messageId}/read`, as: waiting });
    expect(read.statusCode).toBe(403);
    expect(read.json()).toEqual({ message: MSG.verificationRequired });
    const before = await snapshotTables(server, "messages", "point_ledger");
    const send = await server.request({
      method: "POST",
      url: `/api/messages/${peer.id}`,
      as: waiting,
      payload: { content: "返信したい" },
    });
    expect(send.statusCode).toBe(403);
    expect(send.json()).toEqual({ message: MSG.verificationRequired });
    expect(await snapshotTables(server, "messages", "point_ledger")).toEqual(before);
  });
});

describe("the refusal's reason (decision 0032)", () => {
  it("tRPC says verification_required beside the catalogue's message; other refusals carry no reason", async () => {
    const call = (as: RestUser, path: string) =>
      server.app.inject({ method: "GET", url: `/trpc/${path}`, headers: { authorization: `Bearer ${as.token}` } });
    const refused = await call(stranger, "board.access");
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.json).toMatchObject({
      message: MSG.verificationRequired,
      data: { httpStatus: 403, reason: "verification_required" },
    });
    // A member asking for an administrator's list is refused for another reason: none is given.
    const forbidden = await call(peer, "adminUsers.list");
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().error.json.data).not.toHaveProperty("reason");
    // A verified member is let in.
    expect((await call(peer, "board.access")).statusCode).toBe(200);
  });
});

describe("logs", () => {
  it("never carry the ID image, submitted, refused or served", async () => {
    const database = await openTestDatabase(inject("dbTemplate"));
    const lines: string[] = [];
    const app = await buildApp(
      {
        ...loadConfig({
          NODE_ENV: "development", // request logging on, as in production
          DATA_DIR: mkdtempSync(path.join(tmpdir(), "enmusubi-verification-log-")),
          JWT_SECRET: "verification-log-secret-verification-log-0123",
          LOG_LEVEL: "debug",
        }),
        jobs: false,
      },
      { database, passwords: testPasswords, logger: { stream: { write: (line: string) => void lines.push(line) } } },
    );
    try {
      await app.ready();
      const login = async (fields: Parameters<typeof createTestAccount>[2]) => {
        const account = await createTestAccount(database.db, testPasswords, fields);
        const res = await app.inject({
          method: "POST",
          url: "/api/auth/login",
          payload: { userID: account.userID, password: account.password },
        });
        return { authorization: `Bearer ${res.json<{ token: string }>().token}` };
      };
      const member = await login({ verificationStatus: "unverified" });
      const staff = await login({ role: "admin" });
      const image = await idPhoto();
      const broken = `data:image/jpeg;base64,${Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(5000, 7)]).toString("base64")}`;
      expect(
        (await app.inject({ method: "POST", url: "/api/verification", headers: member, payload: { image: broken } }))
          .statusCode,
      ).toBe(400);
      expect(
        (await app.inject({ method: "POST", url: "/api/verification", headers: member, payload: { image } }))
          .statusCode,
      ).toBe(201);
      expect(
        (await app.inject({ method: "POST", url: "/api/verification", headers: member, payload: { image } }))
          .statusCode,
      ).toBe(409);
      const queue = await app.inject({ method: "GET", url: "/api/admin/verifications", headers: staff });
      const id = queue.json<{ verifications: Array<{ _id: string }> }>().verifications[0]?._id;
      const served = await app.inject({ method: "GET", url: `/api/admin/verifications/${id}/image`, headers: staff });
      expect(served.statusCode).toBe(200);
      const stored = served.json<{ image: string }>().image.split(",")[1] as string;
      const log = lines.join("");
      expect(lines.length).toBeGreaterThan(0);
      for (const data of [image.split(",")[1] as string, broken.split(",")[1] as string, stored]) {
        for (const at of [0, Math.floor(data.length / 2), data.length - 64]) {
          expect(log).not.toContain(data.slice(at, at + 48));
        }
      }
    } finally {
      await app.close();
      await database.close();
    }
  });
});
