/**
 * One server per data folder: `gateway serve` holds `DIR/gateway.lock` (its pid, and
 * once listening its address) for as long as it runs. A second server on the same
 * folder would keep its own rate limiter, caches and write-behind buffer over one
 * SQLite file, so it refuses to start. A lock left by a process that no longer runs
 * (a crash, a hard kill) is stale and taken over. One-shot commands (`init`,
 * `user add`, `login-link`) do not take it; `login-link` reads the address from it.
 * `./scripts/start` takes it in its own name before its setup step changes anything,
 * and the server it then starts takes it over from that parent (`handoverFrom`), so a
 * refused second start changes nothing and no third one slips in between.
 */
import { closeSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";

export interface LockInfo {
  pid: number;
  /** The address the server listens on, once it does. */
  url?: string;
}

export class DataFolderInUse extends Error {
  override name = "DataFolderInUse";
}

export const lockPath = (dataDir: string) => join(dataDir, "gateway.lock");

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it runs, as another user.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The lock's contents when a running process holds it; null when there is none or it is stale. */
export function readLiveLock(dataDir: string): LockInfo | null {
  let info: LockInfo;
  try {
    info = JSON.parse(readFileSync(lockPath(dataDir), "utf8")) as LockInfo;
  } catch {
    return null;
  }
  return Number.isInteger(info.pid) && info.pid > 0 && alive(info.pid) ? info : null;
}

export interface DataLock {
  /** Records the address the server listens on (read by `gateway login-link`). */
  listening(url: string): void;
  release(): void;
}

/**
 * Takes the data folder for `pid`, or throws DataFolderInUse naming the holder. A lock
 * held by `handoverFrom` (the start script that took it for this server) is taken over.
 */
export function lockDataFolder(dataDir: string, pid = process.pid, handoverFrom?: number): DataLock {
  const path = lockPath(dataDir);
  for (let attempt = 0; ; attempt++) {
    try {
      // Exclusive create: of two servers starting at once, exactly one gets the file.
      const fd = openSync(path, "wx", 0o600);
      writeSync(fd, JSON.stringify({ pid } satisfies LockInfo));
      closeSync(fd);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 0) throw err;
      const holder = readLiveLock(dataDir);
      if (holder && holder.pid !== pid && holder.pid !== handoverFrom) {
        throw new DataFolderInUse(
          `the data folder ${dataDir} is in use by process ${holder.pid}${holder.url ? ` (serving ${holder.url})` : ""}; stop it first, or give this server another --data folder`,
        );
      }
      // Stale (its process is gone), our own, or handed over: take it over.
      rmSync(path, { force: true });
    }
  }
  return {
    listening(url) {
      writeFileSync(path, JSON.stringify({ pid, url } satisfies LockInfo), { mode: 0o600 });
    },
    release() {
      try {
        if ((JSON.parse(readFileSync(path, "utf8")) as LockInfo).pid === pid) rmSync(path, { force: true });
      } catch {
        // already gone
      }
    },
  };
}
