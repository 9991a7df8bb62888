import { buildApp } from "./app";
import { exitWithFatalError } from "./cli/fatal";
import { loadConfig } from "./config";
import { scrubErrorInPlace } from "./logging";

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

// A failed start prints the error's stack: without query parameters (password hashes, e-mails).
main().catch((error: unknown) => exitWithFatalError(scrubErrorInPlace(error)));
