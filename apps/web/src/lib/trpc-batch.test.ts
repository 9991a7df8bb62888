import { TRPC_MAX_URL_LENGTH } from "@enmusubi/shared";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createApiClient } from "./trpc";

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the web app's tRPC batches", () => {
  it("split a page's worth of reads so that no request URL passes what the server accepts", async () => {
    const urls: string[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string) => {
        urls.push(String(url));
        const count = new URL(String(url), "http://localhost").pathname.split(",").length;
        const body = JSON.stringify(Array.from({ length: count }, () => ({ result: { data: { json: [] } } })));
        return new Response(body, { status: 200, headers: { "content-type": "application/json" } });
      }),
    );
    const client = createApiClient();
    const ids = Array.from({ length: 50 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`);
    const answers = await Promise.all(ids.map((id) => client.adminModeration.standing.query({ userIds: [id] })));
    expect(answers).toHaveLength(50);
    expect(urls.length).toBeGreaterThan(1);
    for (const url of urls) expect(url.length).toBeLessThanOrEqual(TRPC_MAX_URL_LENGTH);
  });
});
