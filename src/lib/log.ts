/**
 * Structured logs: one JSON object a line on stdout. Lines are buffered and written
 * once per event-loop turn, so a request log costs a string concatenation, not a
 * syscall. Callers pass fields, never bodies or key values.
 */
export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export type LogFields = Record<string, unknown>;

export interface Logger {
  readonly level: LogLevel;
  enabled(level: Exclude<LogLevel, "silent">): boolean;
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** Writes whatever is buffered; call before exit. */
  flush(): void;
}

/** The time field: one ISO string a millisecond, since a busy gateway writes several lines in each. */
let isoMs = -1;
let iso = "";
function isoNow(): string {
  const ms = Date.now();
  if (ms !== isoMs) {
    isoMs = ms;
    iso = new Date(ms).toISOString();
  }
  return iso;
}

/**
 * One line: the time, level and message, then the fields' own members, written as
 * they are rather than copied into a new object first (a field that repeats a name
 * comes after it, so a reader keeps the field's, as the copy did).
 */
function line(lvl: LogLevel, msg: string, fields?: LogFields): string {
  const head = `{"time":"${isoNow()}","level":"${lvl}","msg":${JSON.stringify(msg)}`;
  const rest = fields === undefined ? "{}" : fieldsJson(fields);
  return rest.length > 2 ? `${head},${rest.slice(1)}\n` : `${head}}\n`;
}

/**
 * The fields as JSON. A value JSON cannot hold (a BigInt, as Postgres's BIGINT columns
 * come back; an object that refers to itself) made the log call throw, failing whatever
 * only meant to log: such values are written as text, after the plain attempt, so the
 * usual line pays nothing for it.
 */
function fieldsJson(fields: LogFields): string {
  try {
    return JSON.stringify(fields);
  } catch {
    const seen = new WeakSet<object>();
    return JSON.stringify(fields, (_key, value: unknown) => {
      if (typeof value === "bigint") return value.toString();
      if (typeof value === "object" && value !== null) {
        if (seen.has(value)) return "[repeated]";
        seen.add(value);
      }
      return value;
    });
  }
}

/**
 * Whether stdout's reader is gone (a log pipe whose other end exited, `serve | head`).
 * Its write error was an uncaught exception that stopped the gateway: losing the log
 * must not take the service down, so lines are dropped from then on, said once on stderr.
 */
let stdoutGone = false;
let watchingStdout = false;
function writeStdout(chunk: string): void {
  if (!watchingStdout) {
    watchingStdout = true;
    process.stderr.on("error", () => {});
    process.stdout.on("error", (err: NodeJS.ErrnoException) => {
      if (stdoutGone) return;
      stdoutGone = true;
      process.stderr.write(`gateway: the log output is closed (${err.code ?? err.message}); log lines are dropped from here on\n`);
    });
  }
  if (!stdoutGone) process.stdout.write(chunk);
}

export function createLogger(level: LogLevel, write: (chunk: string) => void = writeStdout): Logger {
  const threshold = RANK[level];
  let buffer = "";
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (buffer === "") return;
    const out = buffer;
    buffer = "";
    write(out);
  };
  const emit = (lvl: Exclude<LogLevel, "silent">, msg: string, fields?: LogFields) => {
    if (RANK[lvl] < threshold) return;
    buffer += line(lvl, msg, fields);
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };
  return {
    level,
    enabled: (lvl) => RANK[lvl] >= threshold,
    debug: (m, f) => emit("debug", m, f),
    info: (m, f) => emit("info", m, f),
    warn: (m, f) => emit("warn", m, f),
    error: (m, f) => emit("error", m, f),
    flush,
  };
}
