import { MSG } from "@enmusubi/shared";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { type RestUser, snapshotTables, useTestServer } from "./helpers";

const server = useTestServer();
let member: RestUser;

beforeAll(async () => {
  member = await server.createUser();
});

async function gpsJpeg(): Promise<string> {
  const bytes = await sharp({ create: { width: 600, height: 400, channels: 3, background: "#3a6" } })
    .jpeg()
    .withExif({ IFD3: { GPSLatitudeRef: "N", GPSLatitude: "35/1 41/1 0/1" } })
    .toBuffer();
  return `data:image/jpeg;base64,${bytes.toString("base64")}`;
}

describe("photo-data rows", () => {
  it("POST with photodatas stores a clean JPEG, served full size at the answered signed photoUrl only", async () => {
    const res = await server.request({
      method: "POST",
      url: "/api/photo-data/photo-data",
      as: member,
      payload: { photodatas: await gpsJpeg() },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.photoLink).toBe(body.user.photoLink);
    expect(body.user.photoUrl).toMatch(/^\/uploads\/photos\/[0-9a-f]{32}\.jpg\?exp=\d+&sig=/);
    // The stored full-size path is an identifier: unsigned, it is not served (decision 0028).
    const stored = body.user.photoUrl.split("?")[0];
    expect((await server.request({ method: "GET", url: stored })).statusCode).toBe(403);
    const file = await server.request({ method: "GET", url: body.user.photoUrl });
    expect(file.statusCode).toBe(200);
    expect(file.headers["content-type"]).toBe("image/jpeg");
    const meta = await sharp(file.rawPayload).metadata();
    expect(meta).toMatchObject({ format: "jpeg", width: 600, height: 400 });
    expect(meta.exif).toBeUndefined();
  });

  it("answers a photoLink that loads, here and in GET /api/auth/me; sent back, it keeps the photo", async () => {
    const res = await server.request({
      method: "POST",
      url: "/api/photo-data/photo-data",
      as: member,
      payload: { photodatas: await gpsJpeg() },
    });
    // A member's new photo waits for the profile review (decision 0044): its thumbnail is not served yet.
    expect(res.json()).toMatchObject({
      message: MSG.photoSubmittedForReview,
      photoLink: null,
      user: { photoLink: null, profileReview: { photo: { status: "pending" } } },
    });
    const waiting = res.json().user.photoUrl.split("?")[0].replace("/uploads/photos/", "/uploads/thumbs/");
    expect((await server.request({ method: "GET", url: waiting })).statusCode).toBe(404);
    await server.approveProfile(member);
    const me = await server.request({ method: "GET", url: "/api/auth/me", as: member });
    const links = [waiting, me.json().photoLink];
    expect(new Set(links).size).toBe(1);
    const link = links[0] as string;
    expect(link).toMatch(/^\/uploads\/thumbs\/[0-9a-f]{32}\.jpg$/);
    // As a browser's <img> asks for it (no Authorization header), and with the member's token.
    for (const as of [null, member]) {
      const image = await server.request({ method: "GET", url: link, as });
      expect(image.statusCode).toBe(200);
      expect(image.headers["content-type"]).toBe("image/jpeg");
      expect((await sharp(image.rawPayload).metadata()).format).toBe("jpeg");
    }
    // The legacy edit sends the whole user back: the answered link keeps the photo as it is.
    const kept = await server.request({
      method: "PUT",
      url: "/api/auth/profile",
      as: member,
      payload: { name: "写真そのまま", photoLink: link },
    });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json().user).toMatchObject({ name: "写真そのまま", photoLink: link });
    expect(kept.json().user.photoUrl.split("?")[0]).toBe(res.json().user.photoUrl.split("?")[0]);
    // Another member's thumbnail is not one's own photo: refused, nothing changes.
    const other = await server.createUser();
    const before = await snapshotTables(server, "users");
    const foreign = await server.request({
      method: "PUT",
      url: "/api/auth/profile",
      as: other,
      payload: { photoLink: link },
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().message).toBe(MSG.photoLinkInvalid);
    expect(await snapshotTables(server, "users")).toEqual(before);
  });

  it("accepts the photoLink-as-object form, here and in PUT /api/auth/profile", async () => {
    const res = await server.request({
      method: "POST",
      url: "/api/photo-data/photo-data",
      as: member,
      payload: { photoLink: { photodatas: await gpsJpeg() } },
    });
    expect(res.statusCode).toBe(200);
    await server.approveProfile(member);
    const profile = await server.request({
      method: "PUT",
      url: "/api/auth/profile",
      as: member,
      payload: { name: "写真つき", photoLink: { photodatas: await gpsJpeg() } },
    });
    expect(profile.statusCode).toBe(200);
    expect(profile.json().message).toBe(MSG.profileUpdatedPendingReview);
    await server.approveProfile(member);
    expect((await server.request({ method: "GET", url: "/api/auth/me", as: member })).json().photoLink).toMatch(
      /^\/uploads\/thumbs\//,
    );
    expect(profile.json().user.photoUrl.split("?")[0]).not.toBe(res.json().user.photoUrl.split("?")[0]);
    // The replaced file is gone (its signed URL finds nothing).
    expect((await server.request({ method: "GET", url: res.json().user.photoUrl })).statusCode).toBe(404);
  });

  it("DELETE clears the photo and removes its file", async () => {
    const me = await server.request({ method: "GET", url: "/api/auth/me", as: member });
    const link = me.json().photoUrl;
    const res = await server.request({ method: "DELETE", url: "/api/photo-data/photo-data", as: member });
    expect(res.json()).toMatchObject({ message: MSG.photoRemoved, photoLink: null, user: { photoLink: null } });
    expect((await server.request({ method: "GET", url: link })).statusCode).toBe(404);
  });

  it("refuses what is not an image (400), a missing body (400) and anonymous callers (401); nothing changes", async () => {
    const before = await snapshotTables(server, "users");
    const text = await server.request({
      method: "POST",
      url: "/api/photo-data/photo-data",
      as: member,
      payload: { photodatas: `data:image/png;base64,${Buffer.from("<svg onload=alert(1)>").toString("base64")}` },
    });
    expect(text.statusCode).toBe(400);
    expect(text.json()).toEqual({ message: MSG.imageOnly });
    const empty = await server.request({ method: "POST", url: "/api/photo-data/photo-data", as: member, payload: {} });
    expect(empty.json()).toEqual({ message: MSG.imageOnly });
    const wrongType = await server.request({
      method: "POST",
      url: "/api/photo-data/photo-data",
      as: member,
      payload: { photodatas: 12 },
    });
    expect(wrongType.statusCode).toBe(400);
    const anonymous = await server.request({
      method: "POST",
      url: "/api/photo-data/photo-data",
      payload: { photodatas: "x" },
    });
    expect(anonymous.statusCode).toBe(401);
    expect(await snapshotTables(server, "users")).toEqual(before);
  });

  it("never lists the uploads directory or serves paths outside it", async () => {
    for (const url of ["/uploads/", "/uploads/photos/", "/uploads/..%2f..%2fjwt-secret", "/uploads/../jwt-secret"]) {
      const res = await server.request({ method: "GET", url });
      expect([403, 404]).toContain(res.statusCode);
      expect([MSG.forbidden, MSG.notFound]).toContain(res.json().message);
    }
  });
});
