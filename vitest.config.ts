import { availableParallelism } from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

/**
 * One run, four projects: service/procedure tests (packages), server tests (REST and jobs through
 * app.inject), web component tests (happy-dom) and browser tests (Chromium, built app).
 */
export default defineConfig({
  test: {
    // Vitest's default on 2 cores is one worker; the workers' PGlite work is what keeps the cores busy.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    globalSetup: [path.resolve(import.meta.dirname, "vitest.global-setup.ts")],
    projects: [
      {
        extends: true,
        test: {
          name: "api",
          include: ["packages/*/test/**/*.test.ts"],
          environment: "node",
          // One worker runs many files, loading the packages (and PGlite's compiled module) once
          // instead of starting a process per file. Each file still gets its own database
          // (@enmusubi/db/testing); the code under test keeps per-database state in WeakMaps
          // keyed by the database, not in module globals.
          isolate: false,
          sequence: { groupOrder: 0 },
          testTimeout: 20_000,
          // Opening a database from the template and building the app take longer on a busy 2-core machine.
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: "server",
          include: ["apps/server/test/**/*.test.ts"],
          environment: "node",
          // As for api; the app is built per file, on its own database.
          isolate: false,
          // A worker is reused only while the next file in the queue is of its project: each
          // unisolated project runs as its own group (api, then server, then web).
          sequence: { groupOrder: 1 },
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: "web",
          root: "apps/web",
          include: ["src/**/*.test.tsx", "src/**/*.test.ts"],
          environment: "happy-dom",
          setupFiles: ["./src/test/setup.ts"],
          sequence: { groupOrder: 2 },
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["apps/server/e2e/**/*.test.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
