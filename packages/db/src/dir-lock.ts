import { closeSync, linkSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import path from "node:path";

export class DataDirLockedError extends Error {
  constructor(
    readonly lockFile: string,
    readonly pid: number,
  ) {
    super(
      `The embedded database is already in use by process ${pid} (lock file ${lockFile}). ` +
        "PGlite allows one process per data directory: stop the other process, or set DATABASE_URL to use PostgreSQL.",
    );
    this.name = "DataDirLockedError";
  }
}

/**
 * Who holds a lock: the pid, and where /proc tells us, the boot id and the process start time
 * (field 22 of /proc/<pid>/stat, clock ticks since boot). A pid alone is not enough: after a
 * crash a container's server is restarted with the same pid (often 1), and the old lock would name
 * a live process forever.
 */
interface Holder {
  pid: number;
  bootId?: string;
  startTime?: string;
}

/** Lock files this process holds (in this thread), for when /proc cannot tell two openers apart. */
const heldHere = new Set<string>();

function readProc(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

function bootId(): string | undefined {
  return readProc("/proc/sys/kernel/random/boot_id")?.trim() || undefined;
}

/** Start time of a process in clock ticks since boot; undefined when /proc has no such entry. */
export function processStartTime(pid: number): string | undefined {
  const stat = readProc(`/proc/${pid}/stat`);
  if (!stat) return undefined;
  // Field 2 (comm) is in parentheses and may contain blanks or parentheses: count after the last ")".
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const start = fields[22 - 3];
  return start && /^\d+$/.test(start) ? start : undefined;
}

/** The first line is the pid alone, so older versions (which read an integer) still understand it. */
function format(holder: Holder): string {
  const lines = [String(holder.pid)];
  if (holder.startTime) lines.push(`start=${holder.startTime}`);
  if (holder.bootId) lines.push(`boot=${holder.bootId}`);
  return `${lines.join("\n")}\n`;
}

function parse(text: string): Holder | undefined {
  const [first = "", ...rest] = text.split("\n");
  if (!/^\s*\d+\s*$/.test(first)) return undefined;
  const holder: Holder = { pid: Number.parseInt(first, 10) };
  for (const line of rest) {
    const [key, value] = [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1).trim()];
    if (key === "start" && value) holder.startTime = value;
    if (key === "boot" && value) holder.bootId = value;
  }
  return holder;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Whether the process that wrote `holder` still runs. A different boot, or a live process with
 * that pid but another start time, is a different process (the pid was reused). Where /proc is
 * missing (not Linux) only the pid can be checked: our own pid then means a previous life of this
 * process unless this process holds the lock right now; another live pid is assumed to hold it.
 */
function holderIsLive(holder: Holder, lockFile: string): boolean {
  const currentBoot = bootId();
  if (holder.bootId && currentBoot && holder.bootId !== currentBoot) return false;
  const own = holder.pid === process.pid;
  if (!own && !isAlive(holder.pid)) return false;
  const startTime = processStartTime(holder.pid);
  if (holder.startTime && startTime) return holder.startTime === startTime;
  return own ? heldHere.has(lockFile) : true;
}

function ourselves(): Holder {
  return { pid: process.pid, startTime: processStartTime(process.pid), bootId: bootId() };
}

/**
 * Takes an exclusive lock file naming this process. A lock left by a process that is gone (dead,
 * from an earlier boot, or whose pid now belongs to another process, ourselves included) is taken
 * over; a live holder makes this throw, so two processes never open one PGlite directory.
 */
export function acquireDirLock(lockFile: string): () => Promise<void> {
  const key = path.resolve(lockFile);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(lockFile, "wx", 0o600);
      try {
        writeSync(fd, format(ourselves()));
      } finally {
        closeSync(fd);
      }
      heldHere.add(key);
      return async () => {
        heldHere.delete(key);
        rmSync(lockFile, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    let text: string;
    try {
      text = readFileSync(lockFile, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") continue; // released meanwhile
      throw error;
    }
    const holder = parse(text);
    if (holder && holderIsLive(holder, key)) throw new DataDirLockedError(lockFile, holder.pid);
    removeStale(lockFile, text);
  }
  throw new Error(`Could not take the lock ${lockFile}`);
}

/**
 * Removes the stale lock we read, and only that one: it is moved aside first (atomic), and put back
 * if another starter replaced it with its own lock in between.
 */
function removeStale(lockFile: string, staleText: string): void {
  const aside = `${lockFile}.stale-${process.pid}-${Date.now()}`;
  try {
    renameSync(lockFile, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  try {
    if (readFileSync(aside, "utf8") !== staleText) {
      try {
        linkSync(aside, lockFile);
      } catch {
        // Someone took the lock meanwhile: theirs stays, the next attempt sees it.
      }
    }
  } finally {
    rmSync(aside, { force: true });
  }
}
