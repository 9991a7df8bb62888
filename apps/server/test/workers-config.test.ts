import { availableParallelism, tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/config";

const base = { DATA_DIR: tmpdir(), JWT_SECRET: "workers-test-secret-workers-test-secret-0123" };
const postgres = { ...base, DATABASE_URL: "postgres://postgres@127.0.0.1:5432/enmusubi" };

describe("WORKERS and JOBS", () => {
  it("runs one worker per core with PostgreSQL unless WORKERS says otherwise", () => {
    expect(loadConfig(postgres).workers).toBe(availableParallelism());
    expect(loadConfig({ ...postgres, WORKERS: "3" }).workers).toBe(3);
  });

  it("always runs one process with PGlite (one process owns its data directory)", () => {
    expect(loadConfig(base).workers).toBe(1);
    expect(loadConfig({ ...base, WORKERS: "4" }).workers).toBe(1);
  });

  it("refuses a WORKERS that is not a positive whole number", () => {
    for (const WORKERS of ["0", "-1", "1.5", "many"]) {
      expect(() => loadConfig({ ...postgres, WORKERS })).toThrow(/WORKERS/);
    }
  });

  it("starts the background jobs unless JOBS is false", () => {
    expect(loadConfig(postgres).jobs).toBe(true);
    expect(loadConfig({ ...postgres, JOBS: "false" }).jobs).toBe(false);
    expect(loadConfig({ ...postgres, JOBS: "0" }).jobs).toBe(false);
  });
});
