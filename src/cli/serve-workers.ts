/**
 * `gateway serve --workers N`: a node that uses its machine. The first process starts N
 * copies of itself as workers, each a whole gateway listening on the same port with
 * reusePort (the kernel spreads connections), all sharing limits, caps and cache
 * invalidation through Redis. It forwards SIGTERM/SIGINT, waits for every worker to
 * drain, and starts a worker again if one dies. Without Redis, several workers are
 * refused: each would keep its own rate limits and spend caps.
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

export async function superviseWorkers(n: number, serveArgs: string[], log: Logger): Promise<void> {
  let stopping = false;
  const workers = new Set<ReturnType<typeof Bun.spawn>>();
  const start = (): void => {
    const proc = Bun.spawn(selfCommand(["serve", ...serveArgs]), {
      env: { ...process.env, [WORKER_ENV]: "1" },
      stdout: "inherit",
      stderr: "inherit",
    });
    workers.add(proc);
    void proc.exited.then((code) => {
      workers.delete(proc);
      if (stopping) return;
      log.error("worker exited; starting another", { pid: proc.pid, code });
      log.flush();
      setTimeout(start, 1000);
    });
  };
  for (let i = 0; i < n; i++) start();
  log.info("workers started", { workers: n });
  log.flush();
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const running = [...workers];
    for (const w of running) w.kill(signal);
    const codes = await Promise.all(running.map((w) => w.exited));
    log.info("workers stopped", { signal, codes });
    log.flush();
    process.exit(codes.every((c) => c === 0) ? 0 : 1);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}
