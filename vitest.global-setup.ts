import { tmpdir } from "node:os";
import type { TestProject } from "vitest/node";
import { startTemplate, type TestTemplate, testPostgresUrl } from "./packages/db/src/testing/test-database";

/**
 * One migrated, seeded template database for the whole run (@enmusubi/db/testing, imported by
 * path: the root package depends on no workspace package), shared by every project that uses a
 * database. Vitest runs this once per such project, in one process: the first call starts the
 * build, the others get the same template, and the last teardown removes it. It returns before
 * the template is built, so the web project's files (no database) run meanwhile; a file that
 * opens a database waits for it (`templateReady`).
 */
interface Shared {
  template: TestTemplate;
  teardown(): Promise<void>;
  users: number;
}
const key = Symbol.for("enmusubi.testTemplate");
const holder = globalThis as { [key]?: Shared };

export default function setup(project: TestProject) {
  const shared = holder[key] ?? { ...startTemplate({ postgresUrl: testPostgresUrl, directory: tmpdir() }), users: 0 };
  holder[key] = shared;
  shared.users += 1;
  // Typed where it is injected (packages/api/test/helpers.ts).
  (project.provide as (key: string, value: unknown) => void)("dbTemplate", shared.template);
  return async () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    delete holder[key];
    await shared.teardown();
  };
}
