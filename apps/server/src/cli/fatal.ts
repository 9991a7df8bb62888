import { DataDirLockedError } from "@enmusubi/db";
import { MigrationError } from "../database";

/**
 * Reports an error that stops a command (server start, migrate, seed) on stderr and exits 1. A
 * failed migration or a locked PGlite directory gets its own clear message, with the cause below
 * it; anything else is printed with its stack after `prefix`.
 */
export function exitWithFatalError(error: unknown, prefix = "Failed to start"): never {
  if (error instanceof MigrationError || error instanceof DataDirLockedError) {
    process.stderr.write(`\n${error.message}\n`);
    if (error.cause) process.stderr.write(`${String((error.cause as Error).stack ?? error.cause)}\n`);
  } else {
    process.stderr.write(`${prefix}: ${(error as Error)?.stack ?? error}\n`);
  }
  process.exit(1);
}
