import type { ApiDeps, BackgroundJob } from "@enmusubi/api";
import type { FastifyBaseLogger } from "fastify";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startLoop } from "../src/jobs/boss";

/** The job runner's loop for jobs polled more often than cron allows (`everyMs`, e.g. scheduled messages). */

function fakeApp() {
  const errors: unknown[] = [];
  const log = { error: (details: unknown) => errors.push(details), info: () => {} } as unknown as FastifyBaseLogger;
  return { app: { deps: {} as ApiDeps, log }, errors };
}

describe("interval jobs", () => {
  // The loop's timers and the job's own work run on a fake clock: time passes when the test says so.
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

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
        await new Promise((resolve) => setTimeout(resolve, 15));
        active -= 1;
        finished += 1;
        if (runs === 2) throw new Error("boom");
      },
    };
    const { app, errors } = fakeApp();
    const stop = startLoop(job, 10, app);
    // Runs start 10 ms after the previous one ends: at 10, 35, 60 and 85 ms; the fourth is in flight at 90.
    await vi.advanceTimersByTimeAsync(90);
    expect(runs).toBe(4);
    expect(finished).toBe(3);
    expect(overlapped).toBe(false);
    expect(errors).toHaveLength(1);
    let stopped = false;
    const stopping = stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(5);
    expect(stopped).toBe(false);
    await vi.advanceTimersByTimeAsync(10);
    await stopping;
    expect(finished).toBe(4);
    // Stopped: no run starts any more.
    await vi.advanceTimersByTimeAsync(1000);
    expect(runs).toBe(4);
    expect(vi.getTimerCount()).toBe(0);
  });
});
