/**
 * A write the store refused because of the rows themselves (a constraint, a value its
 * column cannot hold or a driver cannot bind), as opposed to a passing failure (busy,
 * locked, the database away): the same rows would be refused again, so retrying them
 * whole is pointless. The write-behind buffer splits such a batch to find them.
 */
export class RowsRefused extends Error {
  /** The database's code (SQLSTATE, SQLITE_*) or the error's name: never its message, which may quote the row's values. */
  readonly code: string;

  constructor(readonly reason: unknown) {
    const e = reason as { errno?: unknown; code?: unknown; name?: unknown } | null;
    const code = [e?.errno, e?.code, e?.name].find((c): c is string => typeof c === "string") ?? "unknown";
    super(`the store refused the rows (${code})`);
    this.name = "RowsRefused";
    this.code = code;
  }
}
