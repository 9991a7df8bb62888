import { isClusterPrimary, runPrimary } from "./cluster";
import { loadConfig } from "./config";
import { scrubErrorInPlace } from "./logging";

async function main() {
  const config = loadConfig();
  if (isClusterPrimary(config.workers)) {
    runPrimary(config.workers);
    return;
  }
  // Loaded only where requests are served: the primary of a cluster stays small.
  const { buildApp } = await import("./app");
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

// A failed start prints the error's stack: without query parameters (password hashes, e-mails).
main().catch(async (error: unknown) => {
  const { exitWithFatalError } = await import("./cli/fatal");
  exitWithFatalError(scrubErrorInPlace(error));
});
