import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { pgliteExtensions } from "./client";
import { acquireDirLock } from "./dir-lock";

/**
 * A PGlite data directory as one gzipped tarball (PGlite's `dumpDataDir`), taken under PGlite's
 * query lock: no statement runs while the files are read, so the copy is what a power cut at that
 * instant would leave, and opening it replays the WAL like PostgreSQL after a crash: every
 * committed transaction, none half (decision 0035).
 */
export async function dumpPglite(pglite: PGlite): Promise<Buffer> {
  const file = await pglite.dumpDataDir("gzip");
  return Buffer.from(await file.arrayBuffer());
}

/**
 * Writes a tarball of `dumpPglite` into `<dataDir>/pg`, which must be empty or absent. Takes the
 * data directory's lock: refused (DataDirLockedError) while a server uses it.
 */
export async function loadPglite(dataDir: string, tarball: Buffer): Promise<void> {
  mkdirSync(dataDir, { recursive: true });
  const release = acquireDirLock(`${dataDir}/pg.lock`);
  try {
    const dir = `${dataDir}/pg`;
    if (existsSync(dir) && readdirSync(dir).length > 0)
      throw new Error(`${dir} is not empty: restore into an empty DATA_DIR (move the old pg/ aside first)`);
    const pg = await PGlite.create(dir, {
      loadDataDir: new Blob([new Uint8Array(tarball)]),
      extensions: pgliteExtensions,
    });
    await pg.query("select 1");
    await pg.close();
  } finally {
    await release();
  }
}
