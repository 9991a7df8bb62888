import { DataDirLockedError } from "@enmusubi/db";
import { buildApp } from "./app";
import { loadConfig } from "./config";
import { MigrationError } from "./database";

async function main() {
  const config = loadConfig();
  const app = await buildApp(config);
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, "shutting down");
    const timer = setTimeout(() => process.exit(1), 10_000);
    timer.unref();
    await app.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  await app.listen({ port: config.port, host: config.host });
}

main().catch((error: unknown) => {
  if (error instanceof MigrationError || error instanceof DataDirLockedError) {
    process.stderr.write(`\n${error.message}\n`);
    if (error.cause) process.stderr.write(`${String((error.cause as Error).stack ?? error.cause)}\n`);
  } else {
    process.stderr.write(`Failed to start: ${(error as Error)?.stack ?? error}\n`);
  }
  process.exit(1);
});
