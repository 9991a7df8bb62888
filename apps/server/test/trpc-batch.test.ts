import { MSG, TRPC_MAX_URL_LENGTH } from "@enmusubi/shared";
import { beforeAll, describe, expect, it } from "vitest";
import { type RestUser, useTestServer } from "./helpers";

/**
 * A batch of tRPC queries names every procedure in one path parameter (`/trpc/a,b,c?batch=1`).
 * The web app keeps each batch's URL within TRPC_MAX_URL_LENGTH (httpBatchLink's maxURLLength);
 * the server accepts such a path whole. With Fastify's default (100 characters) five batched
 * reads were refused with 414 and the user management buttons drew nothing.
 */
const server = useTestServer();
let admin: RestUser;

beforeAll(async () => {
  admin = await server.createUser({ role: "admin" });
});

/** A GET batch of `count` calls of `path`, each with `input`, as httpBatchLink sends it. */
function batchUrl(path: string, count: number, input: unknown): string {
  const inputs = Object.fromEntries(Array.from({ length: count }, (_, i) => [i, { json: input }]));
  return `/trpc/${Array(count).fill(path).join(",")}?batch=1&input=${encodeURIComponent(JSON.stringify(inputs))}`;
}

describe("batched tRPC reads", () => {
  it("a page's batch of standing reads (path past 100 characters) is answered, every call", async () => {
    const url = batchUrl("adminModeration.standing", 50, { userIds: [admin.id] });
    expect(url.length).toBeGreaterThan(1000);
    const res = await server.app.inject({ method: "GET", url, headers: { authorization: `Bearer ${admin.token}` } });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    const answers = res.json<Array<{ result?: { data: { json: unknown } } }>>();
    expect(answers).toHaveLength(50);
    for (const answer of answers) expect(answer.result?.data.json).toEqual([]);
  });

  it("any path the web app's batches can have is accepted; a longer one is 414 in Japanese", async () => {
    const names = "adminUsers.list,";
    const longest = `/trpc/${names.repeat(Math.floor(TRPC_MAX_URL_LENGTH / names.length)).slice(0, TRPC_MAX_URL_LENGTH - 7)}x`;
    const within = await server.app.inject({ method: "GET", url: longest });
    expect(within.statusCode).not.toBe(414);
    const beyond = await server.app.inject({ method: "GET", url: `/trpc/${"x".repeat(TRPC_MAX_URL_LENGTH + 1)}` });
    expect(beyond.statusCode).toBe(414);
    expect(beyond.json()).toEqual({ message: MSG.uriTooLong });
  });
});
