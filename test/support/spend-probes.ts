/** Probes for spend ledger tests: a reservation's outcome, whether an estimate fits now, waiting on a condition, Redis's clock. */
import { ApiError } from "../../src/lib/errors.ts";
import type { Caps, Reservation, SpendLedger } from "../../src/state/spend-ledger.ts";
import type { RedisConnection } from "../../src/state/redis/redis-connection.ts";

/** The reservation, or the error it was refused with. */
export async function outcome(p: Reservation | Promise<Reservation>): Promise<Reservation | ApiError> {
  try {
    return await p;
  } catch (err) {
    return err as ApiError;
  }
}

/** Whether an estimate fits now; one that fits is released at once, so asking holds nothing. */
export async function fits(ledger: Pick<SpendLedger, "reserve">, caps: Caps, estimate: number): Promise<boolean> {
  const r = await outcome(ledger.reserve(caps, () => estimate));
  if (r instanceof ApiError) return false;
  r.release();
  return true;
}

/** Polls until the condition holds; past the bound (a hang, never a speed) the test fails. */
export async function waitFor(cond: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > until) throw new Error("condition not met in time");
    await Bun.sleep(20);
  }
}

/** Redis's clock in ms: the one spend leases are read on. */
export async function redisNow(conn: RedisConnection): Promise<number> {
  const [s, us] = (await conn.send("TIME", [])) as [string, string];
  return Number(s) * 1000 + Math.floor(Number(us) / 1000);
}
