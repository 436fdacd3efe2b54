/**
 * The embedded database: bun:sqlite in WAL mode. Statements go through `db.query`,
 * which prepares each SQL text once and caches it; the store's `$n` parameters are
 * SQLite's numbered `?n`, rewritten once per text. Calls are synchronous underneath;
 * the async signatures are the driver's, shared with Postgres.
 */
import { Database, type Statement as Prepared } from "bun:sqlite";
import { chmodSync, closeSync, openSync, statSync } from "node:fs";
import type { FlushBatch } from "../../domain/types.ts";
import { rollUpDaily, rollUpHourly } from "../hourly-rollup.ts";
import { MIGRATIONS, refuseNewerSchema } from "../migrations/index.ts";
import { DAILY_ROLLUP, HOURLY_ROLLUP, type RollupTable } from "../rollup-upserts.ts";
import { type Row, SHAREABLE_COLUMNS, sharedColumns, USAGE_EVENT_COLUMNS, usageEventParams } from "../sql/rows.ts";
import { RECORD_FLUSH, type SqlDriver, type Statement } from "../sql/sql-driver.ts";

/** Usage events written by one INSERT (USAGE_EVENT_COLUMNS each, far below SQLite's limit). */
const EVENTS_PER_INSERT = 64;
/** Prepared INSERT shapes held at most (a 64-row statement takes about 200 KB). */
const MAX_INSERT_SHAPES = 64;
// OR ROLLBACK: a failing row ends the flush's transaction, which a failure does anyway (the
// batch is retried whole); without it SQLite keeps a statement journal of every page each
// INSERT touches, to undo that statement alone.
const INSERT_EVENTS = `INSERT OR ROLLBACK INTO usage_events (${USAGE_EVENT_COLUMNS.join(", ")}) VALUES `;

/**
 * The events' INSERT of `rows` rows: the `shared` columns (a sharedColumns mask) are the
 * parameters ?1.. in every row, the others numbered on, row by row, as usageEventParams
 * fills them.
 */
function insertEventsText(rows: number, shared: number): string {
  const once = new Map<string, number>();
  for (const [column, bit] of SHAREABLE_COLUMNS) if (shared & bit) once.set(column, once.size + 1);
  let n = once.size;
  const tuples: string[] = [];
  for (let r = 0; r < rows; r++) tuples.push(`(${USAGE_EVENT_COLUMNS.map((c) => `?${once.get(c) ?? ++n}`).join(", ")})`);
  return `${INSERT_EVENTS}${tuples.join(", ")}`;
}

const oneRow = (t: RollupTable<unknown>) => t.upsert(`(${t.columns.map(() => "?").join(", ")})`);
const UPSERT_HOURLY = oneRow(HOURLY_ROLLUP as RollupTable<unknown>);
const UPSERT_DAILY = oneRow(DAILY_ROLLUP as RollupTable<unknown>);
const TOUCH_KEY = `UPDATE api_keys SET request_count = request_count + ?, spent_micros = spent_micros + ?,
     last_used_at = CASE WHEN last_used_at IS NULL OR last_used_at < ? THEN ? ELSE last_used_at END
   WHERE id = ?`;

/**
 * The database holds e-mail addresses, the audit log and encrypted provider keys: it is
 * created readable by its owner alone (SQLite gives the -wal and -shm files the
 * database's own mode), and one an older version left readable by everyone loses that.
 * Group bits an operator set (a backup group) are left as they are.
 */
function ownerOnly(path: string): void {
  if (path === ":memory:" || path === "") return;
  try {
    closeSync(openSync(path, "wx", 0o600));
    return;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") return; // SQLite's own open says what is wrong
  }
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    try {
      const mode = statSync(file).mode & 0o777;
      if (mode & 0o007) chmodSync(file, mode & ~0o007);
    } catch {
      // absent (no -wal before the first write), or not ours to change: SQLite still opens it
    }
  }
}

/**
 * A database file the gateway cannot use, named with what to do: SQLite's own "file is not
 * a database" or "database disk image is malformed" said neither which file nor that the
 * way back is the backup; a full disk at start is named too. Other errors (a newer schema)
 * pass as they are.
 */
function unusable(path: string, err: unknown): unknown {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === "SQLITE_NOTADB" || code === "SQLITE_CORRUPT")
    return new Error(`${path} is damaged or not a SQLite database (${(err as Error).message}): restore it from a backup`);
  if (code === "SQLITE_FULL") return new Error(`${path} cannot be written: the disk is full (${(err as Error).message})`);
  if (code === "SQLITE_CANTOPEN" || code === "SQLITE_READONLY" || code === "SQLITE_PERM")
    return new Error(`${path} cannot be opened for writing (${(err as Error).message}): check the file and its folder's owner and mode`);
  return err;
}

export class SqliteDriver implements SqlDriver {
  private readonly db: Database;
  /** `$n` texts as SQLite's `?n`. */
  private readonly texts = new Map<string, string>();
  /** The events' INSERTs, prepared once per row count and shared columns: most are full (EVENTS_PER_INSERT rows). */
  private readonly inserts = new Map<number, Prepared>();

  private readonly path: string;

  constructor(path: string) {
    this.path = path;
    ownerOnly(path);
    try {
      this.db = new Database(path, { create: true, strict: true });
      // First: switching a new database to WAL takes a lock that a second process opening it
      // at the same moment (`gateway init` beside a starting server) would otherwise fail on at once.
      this.db.exec("PRAGMA busy_timeout = 5000");
      this.db.exec("PRAGMA journal_mode = WAL");
      this.db.exec("PRAGMA synchronous = NORMAL");
      this.db.exec("PRAGMA foreign_keys = ON");
    } catch (err) {
      throw unusable(path, err);
    }
  }

  private query(text: string) {
    let local = this.texts.get(text);
    if (local === undefined) {
      local = text.replace(/\$(\d+)/g, "?$1");
      this.texts.set(text, local);
    }
    return this.db.query(local);
  }

  async all(text: string, params: unknown[]): Promise<Row[]> {
    return this.query(text).all(...(params as never[])) as Row[];
  }

  async run(text: string, params: unknown[]): Promise<number> {
    return this.query(text).run(...(params as never[])).changes;
  }

  async transaction(statements: Statement[]): Promise<number[]> {
    return this.db.transaction(() => statements.map((s) => this.query(s.text).run(...(s.params as never[])).changes))();
  }

  async writeFlush(batch: FlushBatch, writtenAt: number): Promise<boolean> {
    const events = batch.events;
    return this.db.transaction(() => {
      if (this.query(RECORD_FLUSH).run(batch.id, writtenAt).changes === 0) return false;
      // Many rows a statement: a third less work per event than one statement each.
      for (let i = 0; i < events.length; i += EVENTS_PER_INSERT) {
        const end = Math.min(i + EVENTS_PER_INSERT, events.length);
        const shared = sharedColumns(events, i, end);
        // Handed over as one array: spreading 896 values into the call took a fifth of the flush.
        this.insertEvents(end - i, shared).run(usageEventParams(events, i, end, shared) as never);
      }
      for (const h of rollUpHourly(events)) this.db.query(UPSERT_HOURLY).run(...(HOURLY_ROLLUP.values(h) as never[]));
      for (const d of rollUpDaily(events)) this.db.query(UPSERT_DAILY).run(...(DAILY_ROLLUP.values(d) as never[]));
      for (const t of batch.keyTouches) this.db.query(TOUCH_KEY).run(t.requests, t.spendMicros, t.lastUsedAt, t.lastUsedAt, t.keyId);
      return true;
    })();
  }

  /**
   * A constraint (NOT NULL, a repeated id), a type or size the column refuses, or a value
   * bun:sqlite cannot bind (a TypeError or RangeError before SQLite sees it). Busy, locked,
   * I/O, a full disk and whatever else are passing: the batch is retried whole.
   */
  refuses(err: unknown): boolean {
    if (err instanceof TypeError || err instanceof RangeError) return true;
    const code = (err as { code?: unknown } | null)?.code;
    return typeof code === "string" && /^SQLITE_(?:CONSTRAINT|MISMATCH|TOOBIG|RANGE)/.test(code);
  }

  private insertEvents(rows: number, shared: number): Prepared {
    const shape = rows * 16 + shared;
    let statement = this.inserts.get(shape);
    if (statement === undefined) {
      // Shapes are row counts times masks, up to 1,024; flushes of one caller's calls use two.
      if (this.inserts.size >= MAX_INSERT_SHAPES) this.finalizeInserts();
      statement = this.db.prepare(insertEventsText(rows, shared));
      this.inserts.set(shape, statement);
    }
    return statement;
  }

  /**
   * Pending migrations in one IMMEDIATE transaction: it holds the write lock from before the
   * applied versions are read, so two processes starting on one new folder (a server and
   * `gateway init`) apply each once; the second waits, then finds nothing to do. Read
   * outside it, both saw none applied and the second failed ("table already exists").
   */
  async migrate(): Promise<void> {
    try {
      this.applyMigrations();
    } catch (err) {
      throw unusable(this.path, err);
    }
  }

  private applyMigrations(): void {
    this.db
      .transaction(() => {
        this.db.exec(
          "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)",
        );
        const rows = this.db.query("SELECT version, name FROM schema_migrations").all() as { version: number; name: string }[];
        refuseNewerSchema(rows);
        const applied = new Set(rows.map((r) => Number(r.version)));
        for (const m of MIGRATIONS) {
          if (applied.has(m.version)) continue;
          this.db.exec(m.sql);
          this.db.query("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)").run(m.version, m.name, Date.now());
        }
      })
      .immediate();
  }

  private finalizeInserts(): void {
    for (const statement of this.inserts.values()) statement.finalize();
    this.inserts.clear();
  }

  async close(): Promise<void> {
    this.finalizeInserts();
    this.db.close();
  }
}
