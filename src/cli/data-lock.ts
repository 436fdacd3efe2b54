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
 *
 * A process id alone does not name a process for long: after a reboot or in a fresh
 * container another program may hold the old server's id, and the stale lock would
 * refuse every start. Where the system says when a process started (Linux's /proc), the
 * lock records it, and a lock whose pid now runs a process started at another time is
 * stale too.
 */
import { linkSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface LockInfo {
  pid: number;
  /** When `pid` started (/proc's start time, in clock ticks since boot); absent where unknown. */
  started?: string;
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

/** When process `pid` started, from /proc/PID/stat (field 22, after the parenthesized name); undefined off Linux or when it is gone. */
export function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}

function readLock(path: string): LockInfo | null {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as LockInfo;
  } catch {
    return null;
  }
}

/** The lock's contents when a running process holds it; null when there is none or it is stale. */
export function readLiveLock(dataDir: string): LockInfo | null {
  const info = readLock(lockPath(dataDir));
  if (info === null) return null;
  if (!Number.isInteger(info.pid) || info.pid <= 0 || !alive(info.pid)) return null;
  // The pid runs, but maybe another program now: one started at another time is not the holder.
  const started = info.started === undefined ? undefined : processStart(info.pid);
  return started !== undefined && started !== info.started ? null : info;
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
  const started = processStart(pid);
  const mine = `${path}.${pid}`;
  const inUse = (holder: LockInfo) =>
    new DataFolderInUse(
      `the data folder ${dataDir} is in use by process ${holder.pid}${holder.url ? ` (serving ${holder.url})` : ""}; stop it first, or give this server another --data folder`,
    );
  // Written whole beside the lock, then linked into place: the link fails if a lock exists,
  // and a lock that exists is never an empty file a second server would take for stale.
  writeFileSync(mine, JSON.stringify({ pid, started } satisfies LockInfo), { mode: 0o600 });
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        linkSync(mine, path);
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
        const seen = readLock(path);
        const holder = readLiveLock(dataDir);
        if (holder && holder.pid !== pid && holder.pid !== handoverFrom) throw inUse(holder);
        if (attempt > 0) throw inUse(holder ?? seen ?? { pid: 0 });
        // Stale (its process is gone), our own, or handed over: moved aside, then taken. Of two
        // servers taking over one stale lock, the second moves aside the first's new lock: it
        // sees that and puts it back, refused.
        const aside = `${path}.stale.${pid}`;
        try {
          renameSync(path, aside);
        } catch {
          continue; // another server moved it first; its link decides
        }
        const moved = readLock(aside);
        if (moved && JSON.stringify(moved) !== JSON.stringify(seen)) {
          try {
            linkSync(aside, path);
          } finally {
            rmSync(aside, { force: true });
          }
          throw inUse(moved);
        }
        rmSync(aside, { force: true });
      }
    }
  } finally {
    rmSync(mine, { force: true });
  }
  return {
    listening(url) {
      // Written beside and renamed over: a second server reading the lock meanwhile sees the whole of it, never an empty file it would take for stale.
      const next = `${path}.${pid}`;
      writeFileSync(next, JSON.stringify({ pid, started, url } satisfies LockInfo), { mode: 0o600 });
      renameSync(next, path);
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
