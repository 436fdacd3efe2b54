/**
 * What the SQL store needs of a database: statements written once, with `$1`-style
 * parameters, run by SQLite (embedded) or Postgres (scale-out). A driver also owns
 * what truly differs between the two: its migrations, how a write-behind flush is
 * batched (a few statements per thousand events on Postgres, prepared 64-row inserts on
 * SQLite).
 */
import type { FlushBatch } from "../../domain/types.ts";
import type { Row } from "./rows.ts";

/**
 * A flush's first statement, with its id and the time: no row changed means the batch is
 * already stored (a commit whose acknowledgement was lost), and the driver stops there.
 * The check and the record are one statement inside the transaction, so no lookup runs
 * before it and a batch cannot pass the check twice.
 */
export const RECORD_FLUSH = "INSERT INTO usage_flushes (id, written_at) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING";

export interface Statement {
  text: string;
  params: unknown[];
}

export interface SqlDriver {
  all(text: string, params: unknown[]): Promise<Row[]>;
  /** Rows changed by an INSERT, UPDATE or DELETE. */
  run(text: string, params: unknown[]): Promise<number>;
  /** Statements that apply together or not at all; the rows each changed. */
  transaction(statements: Statement[]): Promise<number[]>;
  /**
   * One flush: its id (RECORD_FLUSH), events, roll-ups and key counters, in one
   * transaction; false, having written nothing, when the id was already recorded.
   */
  writeFlush(batch: FlushBatch, writtenAt: number): Promise<boolean>;
  /** The failure is the rows' fault (a constraint, a value the column cannot hold): writing them again fails again. */
  refuses(err: unknown): boolean;
  migrate(): Promise<void>;
  close(): Promise<void>;
}
