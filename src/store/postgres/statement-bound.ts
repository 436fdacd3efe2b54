/**
 * One statement (or transaction) on a connection of its own, bounded in time. Bun's SQL
 * client has no per-query timeout: a server that froze, or a partition that drops packets
 * without a reset, leaves a query waiting for ever. Past the bound the caller gets
 * StatementTimedOut and the connection is closed, not returned: the pool opens a fresh
 * one for the next statement, where a reused one would carry the lost answer's gap.
 */
import type { ReservedSQL, SQL } from "bun";

/** GW_STORE_TIMEOUT_S's default: a flush of a long outage's backlog must still fit in it. */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 30_000;

export class StatementTimedOut extends Error {
  /**
   * What the wait was for: a connection from the pool (every one busy or hung, or a new
   * one's handshake unanswered: the caller retires the pool, as only closing it ends
   * those) or the statement's answer (its connection is closed here).
   */
  constructor(
    ms: number,
    readonly waitedFor: "connection" | "answer",
  ) {
    super(`no ${waitedFor} from Postgres within ${ms} ms`);
    this.name = "StatementTimedOut";
  }
}

export async function boundedOn<T>(pool: SQL, ms: number, work: (conn: SQL) => Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<"expired">((resolve) => {
    timer = setTimeout(() => resolve("expired"), ms);
  });
  // Waiting for a connection counts: a new one to a silent server hangs in its handshake.
  const abort = new AbortController();
  const reserving = pool.reserve({ signal: abort.signal });
  let conn: ReservedSQL | null = null;
  try {
    const got = await Promise.race([reserving, expired]);
    if (got === "expired") {
      const timedOut = new StatementTimedOut(ms, "connection");
      abort.abort(timedOut);
      // A connection handed over in the same turn as the abort is ours to give back.
      void reserving.then((c) => c.release(), () => {});
      throw timedOut;
    }
    conn = got;
    const running = work(conn);
    const done = await Promise.race([running.then((value) => ({ value })), expired]);
    if (done === "expired") {
      // Its rejection (the connection closed under it) is expected, not unhandled.
      running.catch(() => {});
      const hung = conn;
      conn = null;
      void hung.close().catch(() => {});
      throw new StatementTimedOut(ms, "answer");
    }
    return done.value;
  } finally {
    clearTimeout(timer);
    // A connection that broke under its statement is dropped by the pool itself; that
    // release failing must not hide the statement's own error.
    if (conn) await Promise.resolve(conn.release()).catch(() => {});
  }
}
