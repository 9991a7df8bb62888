import { tmpdir } from "node:os";
import path from "node:path";
import { prepareTemplate } from "./packages/db/src/testing/test-database";
import type { TestProject } from "vitest/node";

/** One migrated, seeded template database for the whole run (see @enmusubi/db/testing: the root does not depend on the workspace packages, so it is imported by path). */
export default async function setup(project: TestProject) {
  const { template, teardown } = await prepareTemplate({
    postgresUrl: process.env.TEST_DATABASE_URL,
    snapshotFile: path.join(tmpdir(), `enmusubi-test-${process.pid}.tar`),
  });
  // Typed where it is injected (packages/api/test/helpers.ts).
  (project.provide as (key: string, value: unknown) => void)("dbTemplate", template);
  return teardown;
}
