import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Vitest orders a project's files by their last durations, kept in node_modules/.vite; a fresh
 * clone has none, and then orders them by size, largest first. A few small files run long (their
 * work is generated or waits for a job's poll), and run last by size, leaving one worker alone for
 * their whole length at the end of the group (about 10 s of the fresh clone's `pnpm test:unit`).
 * Without a recorded duration, these go first in their project.
 */
const LONG_FOR_THEIR_SIZE = [
  "apps/server/test/property-bad-input-rest.test.ts",
  "apps/server/test/property-bad-input-trpc.test.ts",
  "apps/server/test/scheduled-job.test.ts",
];

export class Sequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const recorded = (file: TestSpecification) =>
      this.ctx.cache.getFileTestResults(`${file.project.name}:${file.moduleId.slice(this.ctx.config.root.length + 1)}`);
    const first = (file: TestSpecification) =>
      !recorded(file) && LONG_FOR_THEIR_SIZE.some((path) => file.moduleId.endsWith(path));
    // Within each run of one project (the base order keeps a project's files together).
    const out: TestSpecification[] = [];
    let run: TestSpecification[] = [];
    const flush = () => {
      out.push(...run.filter(first), ...run.filter((f) => !first(f)));
      run = [];
    };
    for (const file of sorted) {
      if (run.length > 0 && run[0]?.project !== file.project) flush();
      run.push(file);
    }
    flush();
    return out;
  }
}
