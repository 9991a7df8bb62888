import { availableParallelism, tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import {
  databaseIsLocal,
  defaultWorkers,
  runtimeV8Flags,
  workerEnvironment,
  workerExecArgv,
  workersFromEnvironment,
} from "../src/cluster";
import { loadConfig, poolMaxFor, SERVER_POOL_TOTAL } from "../src/config";

const base = { DATA_DIR: tmpdir(), JWT_SECRET: "workers-test-secret-workers-test-secret-0123" };
const postgres = { ...base, DATABASE_URL: "postgres://postgres@127.0.0.1:5432/enmusubi" };
const remote = { ...base, DATABASE_URL: "postgres://app@db.internal:5432/enmusubi" };

describe("WORKERS and JOBS", () => {
  it("runs one worker per core with PostgreSQL elsewhere, one core fewer with PostgreSQL here, unless WORKERS says", () => {
    expect(loadConfig(remote).workers).toBe(availableParallelism());
    expect(loadConfig(postgres).workers).toBe(Math.max(1, availableParallelism() - 1));
    expect(loadConfig({ ...postgres, WORKERS: "3" }).workers).toBe(3);
    expect(loadConfig({ ...remote, WORKERS: "1" }).workers).toBe(1);
    expect(defaultWorkers(postgres.DATABASE_URL, 2)).toBe(1);
    expect(defaultWorkers(postgres.DATABASE_URL, 1)).toBe(1);
    expect(defaultWorkers(postgres.DATABASE_URL, 8)).toBe(7);
    expect(defaultWorkers(remote.DATABASE_URL, 2)).toBe(2);
  });

  it("counts loopback and Unix sockets as this machine, any other host (or an unreadable URL) as elsewhere", () => {
    for (const url of [
      "postgres://postgres@127.0.0.1:5432/x",
      "postgres://postgres@localhost/x",
      "postgres://postgres@LOCALHOST/x",
      "postgres://postgres@[::1]:5432/x",
      "postgres:///x",
      "postgres://postgres@/x?host=/var/run/postgresql",
    ]) {
      expect(databaseIsLocal(url), url).toBe(true);
    }
    for (const url of ["postgres://app@db.internal/x", "postgres://app@10.0.0.5:5432/x", "not a url"]) {
      expect(databaseIsLocal(url), url).toBe(false);
    }
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

  it("shares SERVER_POOL_TOTAL connections between the workers (at least 2 each) unless DATABASE_POOL_MAX says", () => {
    expect(loadConfig({ ...postgres, WORKERS: "2" }).databasePoolMax).toBe(SERVER_POOL_TOTAL / 2);
    expect(loadConfig({ ...postgres, WORKERS: "1" }).databasePoolMax).toBe(SERVER_POOL_TOTAL);
    expect(loadConfig({ ...postgres, WORKERS: "3" }).databasePoolMax).toBe(Math.ceil(SERVER_POOL_TOTAL / 3));
    expect(poolMaxFor(64)).toBe(2);
    expect(loadConfig({ ...postgres, WORKERS: "2", DATABASE_POOL_MAX: "12" }).databasePoolMax).toBe(12);
    for (const DATABASE_POOL_MAX of ["0", "-1", "2.5", "many", "101"]) {
      expect(() => loadConfig({ ...postgres, DATABASE_POOL_MAX })).toThrow(/DATABASE_POOL_MAX/);
    }
  });

  it("starts the background jobs unless JOBS is false", () => {
    expect(loadConfig(postgres).jobs).toBe(true);
    expect(loadConfig({ ...postgres, JOBS: "false" }).jobs).toBe(false);
    expect(loadConfig({ ...postgres, JOBS: "0" }).jobs).toBe(false);
  });
});

describe("the primary's own reading of WORKERS (cluster.ts: it loads no configuration schema)", () => {
  it("agrees with loadConfig for every valid setting and gives 1 (one process, which reports the error) otherwise", () => {
    for (const env of [base, postgres, remote]) {
      for (const WORKERS of [undefined, "1", "2", "3", "64"]) {
        const source = WORKERS === undefined ? env : { ...env, WORKERS };
        expect(workersFromEnvironment(source)).toBe(loadConfig(source).workers);
      }
    }
    for (const WORKERS of ["0", "-1", "1.5", "many", "", "65"]) {
      expect(workersFromEnvironment({ ...postgres, WORKERS })).toBe(1);
    }
  });
});

describe("the serving processes' V8 settings", () => {
  const defaults = ["--max-semi-space-size=4", "--no-parallel-scavenge"];
  it("workers: a smaller young generation, collected on the serving thread, unless the command line or NODE_OPTIONS says", () => {
    expect(workerExecArgv([])).toEqual(defaults);
    expect(workerExecArgv(["--enable-source-maps"])).toEqual([...defaults, "--enable-source-maps"]);
    expect(workerExecArgv(["--max-semi-space-size=16"])).toEqual([
      "--no-parallel-scavenge",
      "--max-semi-space-size=16",
    ]);
    // Either form of a flag, with dashes or underscores, counts as given.
    expect(workerExecArgv(["--parallel-scavenge"])).toEqual(["--max-semi-space-size=4", "--parallel-scavenge"]);
    expect(workerExecArgv([], "--max-old-space-size=512 --max-semi-space-size=8 --no_parallel_scavenge")).toEqual([]);
  });

  it("the single process: only what V8 reads at each collection (a heap size is fixed at start)", () => {
    expect(runtimeV8Flags([])).toEqual(["--no-parallel-scavenge"]);
    expect(runtimeV8Flags(["--max-semi-space-size=16"])).toEqual(["--no-parallel-scavenge"]);
    expect(runtimeV8Flags(["--parallel-scavenge"])).toEqual([]);
    expect(runtimeV8Flags([], "--parallel_scavenge")).toEqual([]);
  });
});

describe("the workers' environment", () => {
  it("two malloc arenas unless MALLOC_ARENA_MAX is set", () => {
    expect(workerEnvironment({})).toEqual({ MALLOC_ARENA_MAX: "2" });
    expect(workerEnvironment({ MALLOC_ARENA_MAX: "8" })).toEqual({});
  });
});
