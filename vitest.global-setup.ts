import { tmpdir } from "node:os";
import path from "node:path";
import { prepareTemplate, testPostgresUrl } from "@enmusubi/db/testing";
import type { TestProject } from "vitest/node";

/** One migrated, seeded template database for the whole run (see @enmusubi/db/testing). */
export default async function setup(project: TestProject) {
  const { template, teardown } = await prepareTemplate({
    postgresUrl: testPostgresUrl,
    snapshotFile: path.join(tmpdir(), `enmusubi-test-${process.pid}.tar`),
  });
  // Typed where it is injected (packages/api/test/helpers.ts).
  (project.provide as (key: string, value: unknown) => void)("dbTemplate", template);
  return teardown;
}
