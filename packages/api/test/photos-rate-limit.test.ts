import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { MSG } from "@enmusubi/shared";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { createDatabaseRateLimiter, RATE_LIMITS } from "../src/security/rate-limit";
import { useTestApi } from "./helpers";

const api = useTestApi({
  uploadsDir: `/tmp/enmusubi-photo-limit-${process.pid}-${Date.now()}`,
});
beforeAll(() => {
  api.deps.limiter = createDatabaseRateLimiter(api.database.db);
});

describe("photo uploads are rate-limited per account", () => {
  it("refuses the upload after the hourly allowance with 429 and stores nothing for it", async () => {
    const member = await api.createUser();
    const other = await api.createUser();
    const png = (
      await sharp({ create: { width: 8, height: 8, channels: 3, background: "#abc" } })
        .png()
        .toBuffer()
    ).toString("base64");
    const caller = api.caller(member);
    for (let i = 0; i < RATE_LIMITS.photoUploadPerMember.max; i++) await caller.profile.uploadPhoto({ data: png });
    const dir = path.join(api.deps.uploadsDir, "photos");
    const files = existsSync(dir) ? await readdir(dir) : [];
    await expect(caller.profile.uploadPhoto({ data: png })).rejects.toMatchObject({
      code: "TOO_MANY_REQUESTS",
      message: MSG.tooManyRequests,
    });
    expect(await readdir(dir)).toEqual(files);
    // Another member is not affected.
    await expect(api.caller(other).profile.uploadPhoto({ data: png })).resolves.toMatchObject({ userID: other.userID });
  });
});
