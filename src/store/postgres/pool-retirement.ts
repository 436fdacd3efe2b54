/**
 * The Postgres driver's connection pools: the one new statements take, and those retired
 * while statements still ran on them. A pool that gave no connection within the bound is
 * retired, not closed at once: closing it failed every statement still on it, healthy ones
 * included (a slow answer on a busy pool, a caller queued for its next free connection).
 */
import type { SQL } from "bun";

interface Pool {
  readonly sql: SQL;
  /** Statements on it, running or waiting for a connection: each ends within its own bound. */
  users: number;
  retired: boolean;
}

export class RetiringPools {
  private current: Pool;
  private readonly retired = new Set<Pool>();

  constructor(private readonly open: () => SQL) {
    this.current = { sql: open(), users: 0, retired: false };
  }

  /** The pool new statements take (migrations use it directly, before any is retired). */
  get sql(): SQL {
    return this.current.sql;
  }

  /** Runs `work` on the current pool; a pool retired meanwhile is closed once its last statement is done. */
  async use<T>(work: (sql: SQL) => Promise<T>): Promise<T> {
    const pool = this.current;
    pool.users++;
    try {
      return await work(pool.sql);
    } finally {
      pool.users--;
      if (pool.retired && pool.users === 0) this.end(pool);
    }
  }

  /**
   * Takes no new statement on `sql`'s pool: later ones open a fresh pool. What runs on it
   * goes on, each within its bound; the pool is closed after the last (closing ends what it
   * still holds: hung connections, handshakes never answered). A pool already retired
   * (several statements gave up on it together) is left as it is.
   */
  retire(sql: SQL): void {
    const pool = this.current;
    if (pool.sql !== sql) return;
    pool.retired = true;
    this.current = { sql: this.open(), users: 0, retired: false };
    if (pool.users === 0) this.end(pool);
    else this.retired.add(pool);
  }

  /** Retired pools still open (tests). */
  get retiring(): number {
    return this.retired.size;
  }

  /** Closes every pool, retired ones at once: what still runs on them fails. */
  async close(timeoutS: number): Promise<void> {
    for (const pool of this.retired) this.end(pool);
    await this.current.sql.close({ timeout: timeoutS });
  }

  private end(pool: Pool): void {
    this.retired.delete(pool);
    void pool.sql.close({ timeout: 0 }).catch(() => {});
  }
}
