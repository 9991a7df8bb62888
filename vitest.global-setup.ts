import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { prepareTemplate, testPostgresUrl } from "./packages/db/src/testing/test-database";

/**
 * One migrated, seeded template database for the whole run (@enmusubi/db/testing, imported by
 * path: the root package depends on no workspace package).
 */
export default async function setup(project: TestProject) {
  const { template, teardown } = await prepareTemplate({
    postgresUrl: testPostgresUrl,
    snapshotFile: path.join(tmpdir(), `enmusubi-test-${process.pid}.tar`),
  });
  // Typed where it is injected (packages/api/test/helpers.ts).
  (project.provide as (key: string, value: unknown) => void)("dbTemplate", template);
  return teardown;
}
