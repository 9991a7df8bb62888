import type { ApiDeps, BackgroundJob } from "@enmusubi/api";
import type { FastifyBaseLogger } from "fastify";
import { describe, expect, it } from "vitest";
import { startLoop } from "../src/jobs/boss";

/** The job runner's loop for jobs polled more often than cron allows (`everyMs`, e.g. scheduled messages). */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function fakeApp() {
  const errors: unknown[] = [];
  const log = { error: (details: unknown) => errors.push(details), info: () => {} } as unknown as FastifyBaseLogger;
  return { app: { deps: {} as ApiDeps, log }, errors };
}

describe("interval jobs", () => {
  it("run every N ms, one run after another, keep going after a failure, and stop waits for a run in flight", async () => {
    let active = 0;
    let overlapped = false;
    let runs = 0;
    let finished = 0;
    const job: BackgroundJob = {
      name: "test-loop",
      everyMs: 10,
      async run() {
        runs += 1;
        active += 1;
        if (active > 1) overlapped = true;
        await sleep(15);
        active -= 1;
        finished += 1;
        if (runs === 2) throw new Error("boom");
      },
    };
    const { app, errors } = fakeApp();
    const stop = startLoop(job, 10, app);
    // Wait for a few runs (generous deadline: a loaded machine delays timers).
    for (let waited = 0; runs < 4 && waited < 5000; waited += 20) await sleep(20);
    await stop();
    expect(runs).toBeGreaterThanOrEqual(3);
    expect(overlapped).toBe(false);
    expect(finished).toBe(runs);
    expect(errors).toHaveLength(1);
    const after = runs;
    await sleep(50);
    expect(runs).toBe(after);
  });
});
