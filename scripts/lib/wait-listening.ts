/**
 * Used by scripts/start: waits until the gateway serving DIR answers /healthz (its
 * address read from DIR/gateway.lock), so the first-run message, admin key included,
 * is printed after the server's own start-up lines and not scrolled away by them.
 * Exits 1 if the gateway process ends first.
 *
 *   bun run scripts/lib/wait-listening.ts --data DIR --pid PID
 */
import { parseArgs } from "node:util";
import { readLiveLock } from "../../src/cli/data-lock.ts";

const { values } = parseArgs({ args: process.argv.slice(2), options: { data: { type: "string" }, pid: { type: "string" } }, strict: true });
const dataDir = values.data as string;
const pid = Number(values.pid);

const running = () => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

while (running()) {
  // The pid is our own child's, alive: no start time to compare (without /proc that would be a ps every poll).
  const lock = readLiveLock(dataDir, () => undefined);
  if (lock?.pid === pid && lock.url) {
    try {
      if ((await fetch(`${lock.url}/healthz`, { signal: AbortSignal.timeout(1000) })).ok) {
        console.log(
          `\nThe gateway is listening at ${lock.url} (log level ${process.env.GW_LOG_LEVEL ?? "warn"}; GW_LOG_LEVEL=info shows every request).\n`,
        );
        process.exit(0);
      }
    } catch {
      // not answering yet
    }
  }
  await Bun.sleep(100);
}
process.exit(1);
