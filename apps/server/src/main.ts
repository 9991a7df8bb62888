import cluster from "node:cluster";
import { setFlagsFromString } from "node:v8";
import {
  isClusterPrimary,
  runPrimary,
  runtimeV8Flags,
  workerEnvironment,
  workerExecArgv,
  workersFromEnvironment,
} from "./cluster";

/**
 * The primary of a cluster only forks and watches its workers (cluster.ts), so it imports nothing
 * else: the configuration (zod), Fastify and the app are loaded by the processes that serve.
 */
async function main() {
  // biome-ignore lint/style/noProcessEnv: the primary reads its few settings itself, so it loads no configuration schema (zod); every worker still validates the whole environment with loadConfig.
  const env = process.env;
  const workers = workersFromEnvironment(env);
  if (isClusterPrimary(workers)) {
    runPrimary(workers, workerExecArgv(process.execArgv, env.NODE_OPTIONS), workerEnvironment(env));
    return;
  }
  // A worker got its V8 settings on its command line; the single process sets on itself those V8
  // reads at each collection, before it allocates anything of the app's.
  if (!cluster.isWorker)
    for (const flag of runtimeV8Flags(process.execArgv, env.NODE_OPTIONS)) setFlagsFromString(flag);
  const [{ loadConfig }, { buildApp }] = await Promise.all([import("./config"), import("./app")]);
  const config = loadConfig();
  const app = await buildApp(config);
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, "shutting down");
    // From here every new request, /readyz included, is answered 503 while the in-flight ones finish.
    app.startDraining();
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
  const [{ exitWithFatalError }, { scrubErrorInPlace }] = await Promise.all([
    import("./cli/fatal"),
    import("./logging"),
  ]);
  exitWithFatalError(scrubErrorInPlace(error));
});
