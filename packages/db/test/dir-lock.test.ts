import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createDatabase, type Database, DataDirLockedError } from "../src";
import { acquireDirLock, processStartTime } from "../src/dir-lock";

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

/** The pid on the first line of a lock file. */
function lockPid(lockFile: string): number {
  return Number.parseInt(readFileSync(lockFile, "utf8"), 10);
}

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
    expect(lockPid(lockFile)).toBe(process.pid);

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
    expect(lockPid(lockFile)).toBe(process.pid);
    expect(await select1(first)).toEqual([{ one: 1 }]);

    await first.close();
    open.splice(open.indexOf(first), 1);
    expect(existsSync(lockFile)).toBe(false);

    const again = await createDatabase({ dataDir });
    open.push(again);
    expect(await select1(again)).toEqual([{ one: 1 }]);
  });

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
    expect(lockPid(lockFile)).toBe(process.pid);
    expect(await select1(database)).toEqual([{ one: 1 }]);
  });
});

const REPO_ROOT = path.resolve(import.meta.dirname, "../../..");
const DIR_LOCK = path.resolve(import.meta.dirname, "../src/dir-lock.ts");
const HAS_PROC = processStartTime(process.pid) !== undefined;
const BOOT_ID = HAS_PROC ? readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim() : "";

/** A child process that takes the lock with acquireDirLock and keeps it until killed. */
async function lockHolder(lockFile: string): Promise<ChildProcess> {
  const script = `import { acquireDirLock } from ${JSON.stringify(DIR_LOCK)};
acquireDirLock(${JSON.stringify(lockFile)});
process.stdout.write("locked\\n");
setInterval(() => {}, 1000);`;
  // node itself (not the tsx wrapper, which runs node as its own child), so child.pid is the holder.
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "--eval", script], {
    cwd: REPO_ROOT,
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("locked")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`the lock holder exited with ${code}`)));
  });
  return child;
}

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

/**
 * After a crash a container restarts the server with the same pid (often 1) or another process
 * gets the old pid: a lock naming a live pid is stale when that pid is a different process now.
 */
describe("PGlite data directory lock after a crash (pid reused)", () => {
  it("takes over a lock written by an earlier life of our own pid (old format: the pid alone)", async () => {
    const dataDir = tempDataDir();
    const lockFile = path.join(dataDir, "pg.lock");
    writeFileSync(lockFile, String(process.pid));
    const release = acquireDirLock(lockFile);
    expect(lockPid(lockFile)).toBe(process.pid);
    await release();
    expect(existsSync(lockFile)).toBe(false);
  });

  it.runIf(HAS_PROC)(
    "takes over a lock naming our own pid with another start time, and opens the database",
    async () => {
      const dataDir = tempDataDir();
      const lockFile = path.join(dataDir, "pg.lock");
      writeFileSync(lockFile, `${process.pid}\nstart=1\nboot=${BOOT_ID}\n`);
      const database = await createDatabase({ dataDir });
      open.push(database);
      expect(readFileSync(lockFile, "utf8")).toBe(
        `${process.pid}\nstart=${processStartTime(process.pid)}\nboot=${BOOT_ID}\n`,
      );
      expect(await select1(database)).toEqual([{ one: 1 }]);
    },
  );

  it.runIf(HAS_PROC)("takes over a lock naming another live process whose start time differs", async () => {
    const dataDir = tempDataDir();
    const lockFile = path.join(dataDir, "pg.lock");
    const other = spawn("sleep", ["30"], { stdio: "ignore" });
    children.push(other);
    if (!other.pid) throw new Error("could not start the other process");
    const realStart = processStartTime(other.pid);
    expect(realStart).toMatch(/^\d+$/);
    writeFileSync(lockFile, `${other.pid}\nstart=${Number(realStart) + 12345}\nboot=${BOOT_ID}\n`);
    const release = acquireDirLock(lockFile);
    expect(lockPid(lockFile)).toBe(process.pid);
    await release();
  });

  it.runIf(HAS_PROC)("takes over a lock written during an earlier boot", async () => {
    const dataDir = tempDataDir();
    const lockFile = path.join(dataDir, "pg.lock");
    writeFileSync(lockFile, `${process.pid}\nstart=${processStartTime(process.pid)}\nboot=not-this-boot\n`);
    const release = acquireDirLock(lockFile);
    expect(lockPid(lockFile)).toBe(process.pid);
    await release();
  });

  it("refuses a lock a live child process really holds, and takes it once the child is gone", async () => {
    const dataDir = tempDataDir();
    const lockFile = path.join(dataDir, "pg.lock");
    const holder = await lockHolder(lockFile);
    expect(lockPid(lockFile)).toBe(holder.pid);

    expect(() => acquireDirLock(lockFile)).toThrow(DataDirLockedError);
    await expect(createDatabase({ dataDir })).rejects.toMatchObject({ name: "DataDirLockedError", pid: holder.pid });
    expect(lockPid(lockFile)).toBe(holder.pid);

    const exited = new Promise((resolve) => holder.once("exit", resolve));
    holder.kill("SIGKILL");
    await exited;
    const release = acquireDirLock(lockFile);
    expect(lockPid(lockFile)).toBe(process.pid);
    await release();
  });

  it("refuses a second lock in the same process", async () => {
    const dataDir = tempDataDir();
    const lockFile = path.join(dataDir, "pg.lock");
    const release = acquireDirLock(lockFile);
    expect(() => acquireDirLock(lockFile)).toThrow(DataDirLockedError);
    await release();
  });
});
