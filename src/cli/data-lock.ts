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
 * refuse every start. The lock records when its process started (Linux's /proc; without
 * /proc, as on macOS, `ps -o lstart=`, run once when the lock is taken and once more only
 * when a lock is found held by a live pid, never on a path that repeats), and a lock whose
 * pid now runs a process started at another time is stale too.
 */
import { existsSync, linkSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface LockInfo {
  pid: number;
  /** When `pid` started (/proc's start time, in clock ticks since boot; or `ps:` and ps's start date); absent where unknown. */
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

/** When process `pid` started, or undefined when it cannot be told (it is gone, or the system does not say). */
export type StartReader = (pid: number) => string | undefined;

/** From /proc/PID/stat (field 22, after the parenthesized name); undefined off Linux or when it is gone. */
export function procStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}

/**
 * From `ps -o lstart= -p PID` (POSIX systems without /proc: macOS, the BSDs), marked `ps:`.
 * The C locale and UTC, so the date reads the same whatever the environment of the server
 * that wrote it and of the one that compares: a difference must mean another process,
 * or a live server's lock would be taken for stale. Resolution is a second.
 */
export function psStart(pid: number): string | undefined {
  try {
    const ps = Bun.spawnSync(["ps", "-o", "lstart=", "-p", String(pid)], {
      env: { PATH: process.env.PATH ?? "/bin:/usr/bin", LC_ALL: "C", TZ: "UTC" },
      stdout: "pipe",
      stderr: "ignore",
    });
    const text = ps.stdout.toString().trim().replace(/\s+/g, " ");
    return ps.exitCode === 0 && text !== "" ? `ps:${text}` : undefined;
  } catch {
    return undefined; // no ps either: unknown, as before
  }
}

const HAS_PROC = existsSync("/proc/self/stat");

/** This system's reader: /proc where there is one, else ps. */
export const processStart: StartReader = (pid) => (HAS_PROC ? procStart(pid) : psStart(pid));

function readLock(path: string): LockInfo | null {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as LockInfo;
  } catch {
    return null;
  }
}

/** The lock's contents when a running process holds it; null when there is none or it is stale. */
export function readLiveLock(dataDir: string, startOf: StartReader = processStart): LockInfo | null {
  const info = readLock(lockPath(dataDir));
  if (info === null) return null;
  if (!Number.isInteger(info.pid) || info.pid <= 0 || !alive(info.pid)) return null;
  // The pid runs, but maybe another program now: one started at another time is not the holder.
  const started = info.started === undefined ? undefined : startOf(info.pid);
  if (started === undefined || started === info.started) return info;
  // Read another way than it was written (/proc's ticks against ps's date): unknown, so held.
  return started.startsWith("ps:") === info.started?.startsWith("ps:") ? null : info;
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
export function lockDataFolder(dataDir: string, pid = process.pid, handoverFrom?: number, startOf: StartReader = processStart): DataLock {
  const path = lockPath(dataDir);
  const started = startOf(pid);
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
        const holder = readLiveLock(dataDir, startOf);
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
