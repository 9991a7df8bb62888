/**
 * The server as crash-recovery.test.ts runs it in a child process: the real app (REST, tRPC) on
 * DATABASE_URL, listening on PORT, with cheap password hashing and no rate limits (the test sends
 * 100 requests at once from a few accounts); it prints `LISTENING <port>` once it accepts requests.
 */
import { createPasswordHasher, unlimited } from "@enmusubi/api";
import { buildApp } from "../src/app";
import { loadConfig } from "../src/config";

const config = { ...loadConfig(), jobs: false };
const app = await buildApp(config, {
  passwords: createPasswordHasher({ memoryCost: 1024, timeCost: 1 }),
  limiter: unlimited,
});
await app.listen({ port: config.port, host: "127.0.0.1" });
const address = app.server.address() as { port: number };
process.stdout.write(`LISTENING ${address.port}\n`);
