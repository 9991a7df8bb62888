import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { MSG } from "@enmusubi/shared";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { type RestUser, snapshotTables, useTestServer } from "./helpers";

/**
 * A request that carries a photo with other changes applies entirely or not at all: when the rest
 * is refused, the account keeps its photo and no new file is left in the uploads directory.
 */
const server = useTestServer();
let admin: RestUser;

beforeAll(async () => {
  admin = await server.createUser({ role: "admin" });
});

async function photo(color: string): Promise<string> {
  const bytes = await sharp({ create: { width: 64, height: 64, channels: 3, background: color } })
    .jpeg()
    .toBuffer();
  return `data:image/jpeg;base64,${bytes.toString("base64")}`;
}

async function storedFiles(): Promise<string[]> {
  const dir = path.join(server.app.deps.uploadsDir, "photos");
  return existsSync(dir) ? (await readdir(dir)).sort() : [];
}

describe("requests that carry a photo with other changes", () => {
  it("PUT /api/auth/profile with a new photo and a wrong current password: 400, nothing changes", async () => {
    const member = await server.createUser();
    const withPhoto = await server.request({
      method: "PUT",
      url: "/api/auth/profile",
      as: member,
      payload: { photoLink: { photodatas: await photo("#a33") } },
    });
    expect(withPhoto.statusCode).toBe(200);
    const files = await storedFiles();
    const before = await snapshotTables(server, "users");
    const res = await server.request({
      method: "PUT",
      url: "/api/auth/profile",
      as: member,
      payload: {
        name: "新しい名前",
        photoLink: { photodatas: await photo("#3a3") },
        currentPassword: "not-my-password",
        newPassword: "another-password",
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(MSG.currentPasswordWrong);
    expect(await snapshotTables(server, "users")).toEqual(before);
    expect(await storedFiles()).toEqual(files);
  });

  it("PUT /api/auth/profile with a new photo and a valid change applies both and removes the old file", async () => {
    const member = await server.createUser();
    const first = await server.request({
      method: "PUT",
      url: "/api/auth/profile",
      as: member,
      payload: { photoLink: { photodatas: await photo("#a33") } },
    });
    // The full-size file is served signed only (decision 0028): the member's own answer carries that URL.
    const oldLink = first.json().user.photoUrl as string;
    expect((await server.request({ method: "GET", url: oldLink })).statusCode).toBe(200);
    const res = await server.request({
      method: "PUT",
      url: "/api/auth/profile",
      as: member,
      payload: { name: "写真と名前", photoLink: { photodatas: await photo("#33a") } },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ name: "写真と名前" });
    expect(res.json().user.photoUrl).not.toBe(oldLink);
    expect((await server.request({ method: "GET", url: oldLink })).statusCode).toBe(404);
    expect(
      (await server.request({ method: "GET", url: oldLink.replace("/photos/", "/thumbs/").split("?")[0] })).statusCode,
    ).toBe(404);
  });

  it("POST /api/admin/users with a photo and a registered address: 409, no account, no file", async () => {
    const taken = await server.createUser();
    const files = await storedFiles();
    const before = await snapshotTables(server, "users", "point_ledger", "admin_audit_log");
    const res = await server.request({
      method: "POST",
      url: "/api/admin/users",
      as: admin,
      payload: {
        userID: "photo-conflict-1",
        password: "secret-123",
        name: "重複",
        email: `${taken.userID}@example.jp`,
        gender: "female",
        photoLink: { photodatas: await photo("#aa3") },
      },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(MSG.emailTaken);
    expect(await snapshotTables(server, "users", "point_ledger", "admin_audit_log")).toEqual(before);
    expect(await storedFiles()).toEqual(files);
  });

  it("PUT /api/admin/users/{id} with a photo for a deleted member: 404, no file", async () => {
    const gone = await server.createUser();
    await server.request({ method: "DELETE", url: `/api/admin/users/${gone.id}`, as: admin });
    const files = await storedFiles();
    const res = await server.request({
      method: "PUT",
      url: `/api/admin/users/${gone.id}`,
      as: admin,
      payload: {
        name: "削除済み",
        email: `${gone.userID}-new@example.jp`,
        points: 1,
        sendPoints: 1,
        photoLink: { photodatas: await photo("#3aa") },
      },
    });
    expect(res.statusCode).toBe(404);
    expect(await storedFiles()).toEqual(files);
  });

  it("DELETE /api/admin/users/{id} takes the member's photo with the account", async () => {
    const member = await server.createUser();
    const up = await server.request({
      method: "POST",
      url: "/api/photo-data/photo-data",
      as: member,
      payload: { photodatas: await photo("#a3a") },
    });
    // Its thumbnail is served once the photo is approved (decision 0044).
    await server.approveProfile(member);
    const link = up.json().user.photoUrl as string;
    const thumbnail = link.replace("/photos/", "/thumbs/").split("?")[0] as string;
    expect((await server.request({ method: "GET", url: link })).statusCode).toBe(200);
    expect((await server.request({ method: "GET", url: thumbnail })).statusCode).toBe(200);
    const res = await server.request({ method: "DELETE", url: `/api/admin/users/${member.id}`, as: admin });
    expect(res.statusCode).toBe(200);
    expect((await server.request({ method: "GET", url: link })).statusCode).toBe(404);
    expect((await server.request({ method: "GET", url: thumbnail })).statusCode).toBe(404);
  });
});

describe("framework errors of the tRPC endpoint", () => {
  it("an unknown procedure answers NOT_FOUND with a Japanese message", async () => {
    const res = await server.request({ method: "GET", url: "/trpc/nothing.here" });
    expect(res.statusCode).toBe(404);
    expect(JSON.stringify(res.json())).toContain(MSG.notFound);
    expect(res.body).not.toMatch(/No procedure/i);
  });
});
