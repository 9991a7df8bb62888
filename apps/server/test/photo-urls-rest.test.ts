import { writeFileSync } from "node:fs";
import path from "node:path";
import { MSG, THUMBNAIL_MAX_SIDE } from "@enmusubi/shared";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { type RestUser, snapshotTables, useTestServer } from "./helpers";

/**
 * Decision 0028 over HTTP: thumbnails are public, the full-size photo is served only at a signed
 * URL, which a member gets by paying for the enlargement (POST /api/users/{id}/photo-view).
 */
const server = useTestServer();
let viewer: RestUser;
let she: RestUser;
let herLink: string;

async function jpeg(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: "#c63" } })
    .jpeg()
    .toBuffer();
}

beforeAll(async () => {
  viewer = await server.createUser({ points: 500 });
  she = await server.createUser({ gender: "female", name: "拡大さん" });
  const upload = await server.request({
    method: "POST",
    url: "/api/photo-data/photo-data",
    as: she,
    payload: { photodatas: `data:image/jpeg;base64,${(await jpeg(1200, 900)).toString("base64")}` },
  });
  expect(upload.statusCode).toBe(200);
  // Others see it once approved in the profile review (decision 0044).
  await server.approveProfile(she);
  const me = await server.request({ method: "GET", url: "/api/auth/me", as: she });
  // The stored full-size path (her own answers' photoLink is the thumbnail; photoUrl the signed full size).
  herLink = me.json().photoUrl.split("?")[0];
  expect(me.json().photoLink).toBe(herLink.replace("/uploads/photos/", "/uploads/thumbs/"));
});

describe("thumbnails and signed full-size photos", () => {
  it("members' answers carry the public thumbnail (≤ 320 px); the full-size path answers 403 unsigned", async () => {
    const search = await server.request({ method: "GET", url: "/api/users/search?keyword=拡大さん", as: viewer });
    const thumb = search.json().profiles[0].photoLink;
    expect(thumb).toBe(herLink.replace("/uploads/photos/", "/uploads/thumbs/"));
    expect(search.body).not.toMatch(/\/uploads\/photos\/|sig=/);
    const file = await server.request({ method: "GET", url: thumb });
    expect(file.statusCode).toBe(200);
    expect(file.headers["content-type"]).toBe("image/jpeg");
    expect(file.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    const meta = await sharp(file.rawPayload).metadata();
    expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBe(THUMBNAIL_MAX_SIDE);

    const unsigned = await server.request({ method: "GET", url: herLink });
    expect(unsigned.statusCode).toBe(403);
    expect(unsigned.json()).toEqual({ message: MSG.photoLinkExpired });
  });

  it("POST photo-view charges once, answers a signed URL that serves the full-size image; a re-view is free", async () => {
    const quote = await server.request({ method: "GET", url: `/api/users/${she.id}/photo-price`, as: viewer });
    expect(quote.statusCode).toBe(200);
    const price = quote.json().cost as number;
    expect(quote.json()).toMatchObject({ available: true, free: false, reason: null });
    const paid = await server.request({ method: "POST", url: `/api/users/${she.id}/photo-view`, as: viewer });
    expect(paid.statusCode).toBe(200);
    expect(paid.json()).toMatchObject({ charged: true, remainingPoints: 500 - price });
    const url = paid.json().url as string;
    expect(url.startsWith(`${herLink}?exp=`)).toBe(true);
    const full = await server.request({ method: "GET", url });
    expect(full.statusCode).toBe(200);
    expect(full.headers["cache-control"]).toMatch(/^private, max-age=\d+$/);
    expect(await sharp(full.rawPayload).metadata()).toMatchObject({ width: 1200, height: 900 });

    const again = await server.request({ method: "POST", url: `/api/users/${she.id}/photo-view`, as: viewer });
    expect(again.json()).toMatchObject({ charged: false, remainingPoints: 500 - price });
    const free = await server.request({ method: "GET", url: `/api/users/${she.id}/photo-price`, as: viewer });
    expect(free.json()).toMatchObject({ cost: 0, free: true, reason: "recentView" });
  });

  it("a tampered, expired, foreign or missing signature is refused with 403; an unknown photo is 404; never 500", async () => {
    const paid = await server.request({ method: "POST", url: `/api/users/${she.id}/photo-view`, as: viewer });
    const url = new URL(paid.json().url, "http://x");
    const exp = url.searchParams.get("exp") ?? "";
    const sig = url.searchParams.get("sig") ?? "";
    const other = `/uploads/photos/${"0".repeat(32)}.jpg`;
    const flipped = `${sig.slice(0, -1)}${sig.endsWith("A") ? "B" : "A"}`;
    for (const target of [
      `${herLink}?exp=${exp}&sig=${flipped}`,
      `${herLink}?exp=${Number(exp) + 60}&sig=${sig}`,
      `${herLink}?exp=1000000000&sig=${sig}`,
      `${herLink}?exp=${exp}`,
      `${herLink}?sig=${sig}`,
      `${herLink}?exp=${exp}&sig=${sig}&sig=${sig}`,
      `${herLink}?exp=abc&sig=%00`,
      `${other}?exp=${exp}&sig=${sig}`,
    ]) {
      const res = await server.request({ method: "GET", url: target });
      expect(res.statusCode, target).toBe(403);
    }
    for (const target of [
      "/uploads/photos/x.jpg",
      "/uploads/thumbs/../photos/x",
      `/uploads/thumbs/${"0".repeat(32)}.jpg`,
    ]) {
      const res = await server.request({ method: "GET", url: target });
      expect(res.statusCode, target).toBe(404);
    }
  });

  it("a photo stored before thumbnails existed gets its thumbnail on the first request", async () => {
    const name = `${"ab".repeat(16)}.jpg`;
    writeFileSync(path.join(server.app.deps.uploadsDir, "photos", name), await jpeg(800, 1000));
    const old = await server.createUser({ photoLink: `/uploads/photos/${name}` });
    const detail = await server.request({ method: "POST", url: `/api/users/${old.id}/profile-view`, as: viewer });
    const thumb = detail.json().profile.photoLink;
    expect(thumb).toBe(`/uploads/thumbs/${name}`);
    const res = await server.request({ method: "GET", url: thumb });
    expect(res.statusCode).toBe(200);
    expect(await sharp(res.rawPayload).metadata()).toMatchObject({ width: 256, height: THUMBNAIL_MAX_SIDE });
  });

  it("photo-view of a member without a photo: 400 with the catalogue's message, nothing charged", async () => {
    const none = await server.createUser();
    const before = await snapshotTables(server, "users", "point_ledger", "profile_photo_views");
    const res = await server.request({ method: "POST", url: `/api/users/${none.id}/photo-view`, as: viewer });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: MSG.photoNone });
    expect(await snapshotTables(server, "users", "point_ledger", "profile_photo_views")).toEqual(before);
  });
});
