import { tmpdir } from "node:os";
import path from "node:path";
import { prepareTemplate, type TestTemplate } from "@enmusubi/db/testing";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    dbTemplate: TestTemplate;
  }
}

/** One migrated, seeded template database for the whole run (see @enmusubi/db/testing). */
export default async function setup(project: TestProject) {
  const { template, teardown } = await prepareTemplate({
    postgresUrl: process.env.TEST_DATABASE_URL,
    snapshotFile: path.join(tmpdir(), `enmusubi-test-${process.pid}.tar`),
  });
  project.provide("dbTemplate", template);
  return teardown;
}
