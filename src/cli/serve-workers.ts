/**
 * `gateway serve --workers N`: a node that uses its machine. The first process starts N
 * copies of itself as workers, each a whole gateway listening on the same port with
 * reusePort (the kernel spreads connections), all sharing limits, caps and cache
 * invalidation through Redis. It forwards SIGTERM/SIGINT, waits for every worker to
 * drain, and starts a worker again if one dies. Without Redis, several workers are
 * refused: each would keep its own rate limits and spend caps.
 *
 * Each worker says over its IPC channel when it listens. Workers that exit before any
 * did failed to start (Redis away, the port taken, a bad catalog): the whole stops with
 * exit 1 rather than restarting them each second while nothing serves, and the service
 * manager sees the failure. Once the node serves, a worker that dies is started again
 * (after 1 s; one that cannot start again waits longer each time, up to 30 s).
 * A worker whose supervisor is gone (killed hard) sees its channel close and drains:
 * left running, it would serve a data folder whose lock no longer names anyone.
 */
import { availableParallelism } from "node:os";
import type { Config } from "../config.ts";
import type { Logger } from "../lib/log.ts";
import { UsageError } from "./args.ts";

/** Set in a worker's environment, so it serves instead of starting workers of its own. */
export const WORKER_ENV = "GW_SERVE_WORKER";

/** How many workers to run: the flag, else one per core with Redis, else one. */
export function workerCount(flag: string | undefined, config: Config): number {
  if (process.env[WORKER_ENV]) return 1;
  if (flag !== undefined) {
    if (!/^\d+$/.test(flag) || Number(flag) < 1 || Number(flag) > 1024)
      throw new UsageError(`--workers must be a whole number from 1 to 1024, got "${flag}"`);
    const n = Number(flag);
    if (n > 1 && !config.redisUrl) {
      throw new UsageError(
        "--workers above 1 needs GW_REDIS_URL: without Redis each worker would keep its own rate limits and spend caps, so they would no longer hold",
      );
    }
    if (n > 1 && config.port === 0) throw new UsageError("--workers above 1 needs a fixed --port: the workers share one port");
    return n;
  }
  return config.redisUrl && config.port !== 0 ? availableParallelism() : 1;
}

/** The command that runs this program again with `args`: the compiled binary, or bun with the entry script. */
function selfCommand(args: string[]): string[] {
  const compiled = Bun.main.startsWith("/$bunfs/") || Bun.main.startsWith("B:/~BUN/");
  return compiled ? [process.execPath, ...args] : [process.execPath, Bun.main, ...args];
}

/** What a worker sends its supervisor once it listens. */
export const LISTENING_MESSAGE = "listening";

/** Tells the supervisor, if there is one, that this worker listens; returns whether it is a supervised worker. */
export function reportListening(): boolean {
  if (process.env[WORKER_ENV] === undefined || !process.send) return false;
  process.send(LISTENING_MESSAGE);
  return true;
}

export async function superviseWorkers(n: number, serveArgs: string[], log: Logger): Promise<void> {
  let stopping = false;
  /** Whether the node ever served: until then a failed start is the node's, not one worker's. */
  let served = false;
  /** Restarts in a row of workers that died before they listened: each waits twice as long, up to 30 s. */
  let failedStarts = 0;
  const workers = new Set<ReturnType<typeof Bun.spawn>>();
  const start = (): void => {
    let listened = false;
    const proc = Bun.spawn(selfCommand(["serve", ...serveArgs]), {
      env: { ...process.env, [WORKER_ENV]: "1" },
      stdout: "inherit",
      stderr: "inherit",
      ipc(message) {
        if (message !== LISTENING_MESSAGE) return;
        listened = served = true;
        failedStarts = 0;
      },
    });
    workers.add(proc);
    void proc.exited.then((code) => {
      workers.delete(proc);
      if (stopping) return;
      if (!served) {
        log.error("worker failed before it listened; stopping every worker", { pid: proc.pid, code });
        void stop("SIGTERM", 1);
        return;
      }
      // The others serve on: this one is started again, ever more slowly while it cannot start.
      const delayMs = listened ? 1000 : Math.min(30_000, 1000 * 2 ** ++failedStarts);
      log.error("worker exited; starting another", { pid: proc.pid, code, inMs: delayMs });
      log.flush();
      setTimeout(start, delayMs);
    });
  };
  const stop = async (signal: NodeJS.Signals, failed = 0) => {
    if (stopping) return;
    stopping = true;
    const running = [...workers];
    for (const w of running) w.kill(signal);
    const codes = await Promise.all(running.map((w) => w.exited));
    log.info("workers stopped", { signal, codes });
    log.flush();
    process.exit(failed || codes.every((c) => c === 0) ? failed : 1);
  };
  for (let i = 0; i < n; i++) start();
  log.info("workers started", { workers: n });
  log.flush();
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGHUP", () => void stop("SIGHUP"));
}
