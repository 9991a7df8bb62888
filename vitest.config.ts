import { availableParallelism } from "node:os";
import path from "node:path";
import { configDefaults, defineConfig } from "vitest/config";
import { Sequencer } from "./vitest.sequencer.ts";

/**
 * One run, five projects: service/procedure tests (packages), server tests (REST and jobs through
 * app.inject), web component tests (happy-dom), storage tests (real data directories: initdb,
 * migrations, the directory lock, the migrate CLI in a child process) and browser tests (Chromium,
 * built app). `pnpm test:unit`, the everyday loop, runs the first three; `pnpm test` runs all five.
 */

/** The storage tests: each creates PostgreSQL data directories from scratch, some in child processes. */
const STORAGE_TESTS = [
  "packages/db/test/dir-lock.test.ts",
  "packages/db/test/migrate.test.ts",
  "apps/server/test/open-database.test.ts",
  "apps/server/test/backup-restore.test.ts",
];
/** The test template database (vitest.global-setup.ts), for the projects whose files open one. */
const TEMPLATE = [path.resolve(import.meta.dirname, "vitest.global-setup.ts")];

export default defineConfig({
  test: {
    // Vitest's default on 2 cores is one worker; the workers' PGlite work is what keeps the cores busy.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    sequence: { sequencer: Sequencer },
    // A test that asserts nothing fails: it cannot pass by running without checking.
    expect: { requireAssertions: true },
    projects: [
      {
        extends: true,
        test: {
          name: "api",
          include: ["packages/*/test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...STORAGE_TESTS],
          environment: "node",
          // One worker runs many files, loading the packages (and PGlite's compiled module) once
          // instead of starting a process per file. Each file still gets its own database
          // (@enmusubi/db/testing); the code under test keeps per-database state in WeakMaps
          // keyed by the database, not in module globals.
          isolate: false,
          sequence: { groupOrder: 1 },
          globalSetup: TEMPLATE,
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
          exclude: [...configDefaults.exclude, ...STORAGE_TESTS],
          environment: "node",
          // As for api; the app is built per file, on its own database.
          isolate: false,
          // A worker is reused only while the next file in the queue is of its project: each
          // unisolated project runs as its own group (web, then api, then server).
          sequence: { groupOrder: 2 },
          globalSetup: TEMPLATE,
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: "web",
          root: "apps/web",
          include: ["src/**/*.test.tsx", "src/**/*.test.ts", "vite/**/*.test.ts"],
          environment: "happy-dom",
          setupFiles: ["./src/test/setup.ts"],
          // Unisolated too: React, Mantine and the app load once per worker instead of once per file
          // (measured: 83 s of CPU for the project instead of 264 s). Each file still gets a fresh
          // document; setup.ts resets the module state the files would share (notifications, storage).
          isolate: false,
          // First: it opens no database, so it runs while the global setup builds the template.
          sequence: { groupOrder: 0 },
          // userEvent types key by key: a long birthday or 自己紹介 takes seconds on a busy 2-core machine.
          testTimeout: 15_000,
        },
      },
      {
        extends: true,
        test: {
          name: "storage",
          include: STORAGE_TESTS,
          environment: "node",
          sequence: { groupOrder: 3 },
          // A fresh initdb and every migration on PGlite: seconds alone, a minute on a busy machine.
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["apps/server/e2e/**/*.test.ts"],
          environment: "node",
          // No groupOrder: a project of one worker at the default order runs as vitest's own
          // sequential group, after the others (a groupOrder shared with a project of two workers is refused).
          globalSetup: TEMPLATE,
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
