/**
 * The scale-out database: Postgres through Bun.SQL (a connection pool), chosen by
 * GW_DATABASE_URL=postgres://... Migrations run under an advisory lock (migrate.ts);
 * a flush is a few multi-row statements (flush-statements.ts). Every round trip is
 * timed for the /metrics histogram. BIGINT columns arrive as strings; the row mappings
 * convert them. A database that cannot be reached is the caller's 503
 * `service_unavailable` with `Retry-After` (as with Redis down), not a 500: the call
 * may simply be tried again. Every statement runs on a connection of its own, bounded in
 * time (statement-bound.ts): Bun's client has no per-query timeout, so a database gone
 * silent would otherwise hold a flush, and every flush after it, for ever.
 */
import { SQL } from "bun";
import type { FlushBatch } from "../../domain/types.ts";
import { ApiError } from "../../lib/errors.ts";
import { rollUpHourly } from "../hourly-rollup.ts";
import type { Row } from "../sql/rows.ts";
import { RECORD_FLUSH, type SqlDriver, type Statement } from "../sql/sql-driver.ts";
import { flushStatements } from "./flush-statements.ts";
import { migratePostgres } from "./migrate.ts";
import { RetiringPools } from "./pool-retirement.ts";
import { boundedOn, DEFAULT_STATEMENT_TIMEOUT_MS, StatementTimedOut } from "./statement-bound.ts";

export interface PostgresStoreOptions {
  /** Connections in the pool. */
  max?: number;
  /** Called with each statement's round trip in seconds (the /metrics histogram). */
  observe?: (seconds: number) => void;
  /** Longest wait for one statement or flush, connection included (GW_STORE_TIMEOUT_S); past it the connection is closed. */
  timeoutMs?: number;
}

export class PostgresDriver implements SqlDriver {
  private readonly pools: RetiringPools;
  private readonly max: number;
  private readonly observe: (seconds: number) => void;
  private readonly timeoutMs: number;

  private readonly url: string;
  /** Where the database is, for start-up errors: host, port and database, never the password. */
  private readonly where: string;

  constructor(url: string, opts: PostgresStoreOptions = {}) {
    this.max = opts.max ?? 10;
    this.url = url;
    this.pools = new RetiringPools(() => this.openPool());
    this.where = withoutPassword(url);
    this.observe = opts.observe ?? (() => {});
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  }

  private openPool(): SQL {
    return new SQL(this.url, { max: this.max, idleTimeout: 30, connectionTimeout: 10 });
  }

  private async timed<T>(work: (conn: SQL) => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await this.pools.use(async (pool) => {
        try {
          return await boundedOn(pool, this.timeoutMs, work);
        } catch (err) {
          // A pool that gave no connection within the bound holds hung ones (busy on
          // statements a silent server never answers, or handshakes it never answered: Bun
          // would wait `connectionTimeout` on those, and a handshake whose bytes were lost,
          // for ever). New statements go to a fresh pool; this one closes after its last.
          if (err instanceof StatementTimedOut && err.waitedFor === "connection") this.pools.retire(pool);
          throw err;
        }
      });
    } catch (err) {
      throw isUnreachable(err) ? databaseUnavailable() : err;
    } finally {
      this.observe((performance.now() - started) / 1000);
    }
  }

  all(text: string, params: unknown[]): Promise<Row[]> {
    return this.timed(async (conn) => (await conn.unsafe(text, params)) as Row[]);
  }

  run(text: string, params: unknown[]): Promise<number> {
    return this.timed(async (conn) => Number(((await conn.unsafe(text, params)) as unknown as { count: number }).count ?? 0));
  }

  transaction(statements: Statement[]): Promise<number[]> {
    return this.timed((conn) =>
      conn.begin(async (tx) => {
        const counts: number[] = [];
        for (const s of statements) counts.push(await changed(tx, s));
        return counts;
      }),
    );
  }

  writeFlush(batch: FlushBatch, writtenAt: number): Promise<boolean> {
    const statements = flushStatements(batch, rollUpHourly(batch.events));
    // Timed out here, the batch is retried under the same id: if this transaction commits
    // on the server after all, the retry finds the id (RECORD_FLUSH) and writes nothing.
    return this.timed((conn) =>
      conn.begin(async (tx) => {
        if ((await changed(tx, { text: RECORD_FLUSH, params: [batch.id, writtenAt] })) === 0) return false;
        for (const s of statements) await tx.unsafe(s.text, s.params);
        return true;
      }),
    );
  }

  /**
   * SQLSTATE classes 22 (data exception: a value out of range or of the wrong type) and 23
   * (integrity: NOT NULL, a repeated id). The database away, a deadlock, a serialization
   * failure, lack of resources and whatever else are passing: the batch is retried whole.
   */
  refuses(err: unknown): boolean {
    const state = (err as { errno?: unknown } | null)?.errno;
    return typeof state === "string" && /^2[23]/.test(state);
  }

  /** The first statement a start sends: a database it cannot reach or log in to is named by its setting (Bun's own "Failed to connect" named nothing). */
  async migrate(): Promise<void> {
    try {
      await migratePostgres(this.pools.sql);
    } catch (err) {
      const e = err as { code?: unknown; errno?: unknown };
      const login = typeof e.errno === "string" && /^28/.test(e.errno);
      if (isUnreachable(err) || login || (typeof e.code === "string" && /^ERR_POSTGRES_/.test(e.code) && !e.errno))
        throw new Error(`GW_DATABASE_URL: cannot ${login ? "log in to" : "reach"} Postgres at ${this.where} (${(err as Error).message})`);
      throw err;
    }
  }

  close(): Promise<void> {
    return this.pools.close(5);
  }
}

/** Rows the statement changed. */
async function changed(tx: SQL, s: Statement): Promise<number> {
  return Number(((await tx.unsafe(s.text, s.params)) as unknown as { count: number }).count ?? 0);
}

/**
 * The failures that mean the database is away, not that a statement was wrong: Bun's
 * connection errors (refused, closed, timed out), and the server's SQLSTATE classes 08
 * (connection exception) and 57P (shutting down, starting up).
 */
function isUnreachable(err: unknown): boolean {
  const e = err as { code?: unknown; errno?: unknown } | null;
  const code = typeof e?.code === "string" ? e.code : "";
  const state = typeof e?.errno === "string" ? e.errno : code;
  return (
    err instanceof StatementTimedOut ||
    /^ERR_POSTGRES_(?:CONNECTION_|IDLE_TIMEOUT|LIFETIME_TIMEOUT)/.test(code) ||
    /^(?:08|57P0)/.test(state)
  );
}

function databaseUnavailable(): ApiError {
  return new ApiError(503, "service_unavailable", "The database is unavailable right now; try again shortly.", {
    headers: { "retry-after": "1" },
  });
}

/** `postgres://user:secret@host/db` as `postgres://user@host/db`: an address to name in a message. */
function withoutPassword(url: string): string {
  try {
    const u = new URL(url);
    u.password = "";
    u.search = "";
    return u.toString();
  } catch {
    return "the configured address";
  }
}
