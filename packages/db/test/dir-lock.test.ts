import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createDatabase, type Database, DataDirLockedError } from "../src";

/** PGlite allows one process per data directory; the lock file makes a second opener fail clearly. */

const dirs: string[] = [];
const open: Database[] = [];

function tempDataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "enmusubi-lock-test-"));
  dirs.push(dir);
  return dir;
}

afterEach(async () => {
  for (const database of open.splice(0)) await database.close().catch(() => {});
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function select1(database: Database) {
  const result = await database.db.execute("select 1 as one");
  return (result as unknown as { rows: unknown[] }).rows;
}

describe("PGlite data directory lock", () => {
  it("refuses a second open of a directory in use, and allows it again after close()", async () => {
    const dataDir = tempDataDir();
    const lockFile = path.join(dataDir, "pg.lock");
    const first = await createDatabase({ dataDir });
    open.push(first);
    expect(readFileSync(lockFile, "utf8")).toBe(String(process.pid));

    const refusal = await createDatabase({ dataDir }).then(
      (second) => {
        open.push(second);
        throw new Error("the second open should have been refused");
      },
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(DataDirLockedError);
    const locked = refusal as DataDirLockedError;
    expect(locked.name).toBe("DataDirLockedError");
    expect(locked.pid).toBe(process.pid);
    expect(locked.lockFile).toBe(lockFile);
    expect(locked.message).toContain(`already in use by process ${process.pid}`);
    expect(locked.message).toContain(lockFile);
    expect(locked.message).toContain("DATABASE_URL");

    // The refusal left the first holder alone: its lock and its connection still work.
    expect(readFileSync(lockFile, "utf8")).toBe(String(process.pid));
    expect(await select1(first)).toEqual([{ one: 1 }]);

    await first.close();
    open.splice(open.indexOf(first), 1);
    expect(existsSync(lockFile)).toBe(false);

    const again = await createDatabase({ dataDir });
    open.push(again);
    expect(await select1(again)).toEqual([{ one: 1 }]);
  }, 30_000);

  it("refuses a directory held by another live process", async () => {
    const dataDir = tempDataDir();
    const holder = spawn("sleep", ["30"], { stdio: "ignore" });
    try {
      if (!holder.pid) throw new Error("could not start the holder process");
      writeFileSync(path.join(dataDir, "pg.lock"), String(holder.pid));
      await expect(createDatabase({ dataDir })).rejects.toMatchObject({
        name: "DataDirLockedError",
        pid: holder.pid,
      });
    } finally {
      holder.kill();
    }
  });

  it("takes over a lock left behind by a process that has exited", async () => {
    const dataDir = tempDataDir();
    const lockFile = path.join(dataDir, "pg.lock");
    const gone = spawnSync(process.execPath, ["-e", ""]);
    writeFileSync(lockFile, String(gone.pid));
    const database = await createDatabase({ dataDir });
    open.push(database);
    expect(readFileSync(lockFile, "utf8")).toBe(String(process.pid));
    expect(await select1(database)).toEqual([{ one: 1 }]);
  }, 30_000);
});
