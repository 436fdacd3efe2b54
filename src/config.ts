/**
 * The one configuration module: every setting, its `GW_*` variable, its flag (where
 * it has one), its default and its validation. Loaded once at start; a bad value
 * stops the process with one clear line per problem.
 */
import { resolve } from "node:path";
import type { LogLevel } from "./lib/log.ts";
import { MAX_EVENT_CHARS } from "./lib/sse.ts";
// A value quoted back in a message is cut short and escaped: a variable can hold anything, a pasted key or a whole file.
import { quotedSafely } from "./lib/plain-text.ts";
import { type TracingConfig, tracingConfigFrom } from "./lib/tracing/otel-config.ts";

export type Durability = "batched" | "strict";

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  /** Base64 of 32 bytes, or null: generated into `dataDir/master.key` on first start. */
  masterKey: string | null;
  /** null: SQLite at `dataDir/gateway.db`. */
  databaseUrl: string | null;
  redisUrl: string | null;
  publicUrl: string | null;
  oidcIssuer: string | null;
  oidcClientId: string | null;
  oidcClientSecret: string | null;
  catalogPath: string | null;
  logLevel: LogLevel;
  rateLimitRequests: number;
  rateLimitWindowS: number;
  durability: Durability;
  /** Largest request body accepted, in bytes (413 above). */
  maxBodyBytes: number;
  /** Longest a request body may go without a byte (408 after); the whole body has ten times that. */
  bodyTimeoutS: number;
  /** Largest provider answer read, in bytes: a whole answer, or one stream event (the provider's 502 above). */
  maxAnswerBytes: number;
  /** Take the client address from X-Forwarded-For (only behind a trusted load balancer). */
  trustProxy: boolean;
  usageRetentionDays: number;
  /** Audit entries kept this many days (refusals are audited too, so the log grows with traffic). */
  auditRetentionDays: number;
  /** Notifications kept this many days; at least 32, since this month's are the budget alerts' memory. */
  notificationRetentionDays: number;
  keyCacheTtlS: number;
  flushIntervalMs: number;
  /** Seconds between alert checks (budget thresholds, provider rate-limit states). */
  alertCheckIntervalS: number;
  flushMaxEvents: number;
  /** How long a provider may take to start answering (a whole non-stream answer). */
  upstreamTimeoutS: number;
  /** How long a running stream may go without a byte from its provider before it is ended; 0: no bound. */
  streamIdleTimeoutS: number;
  /** On SIGTERM/SIGINT, how long in-flight calls and streams may take to finish before they are cut (and charged); 0: no bound. */
  drainTimeoutS: number;
  /** Outbound addresses (providers, webhooks, OIDC issuer, MCP servers) on loopback and private ranges allowed; link-local and metadata never. */
  allowPrivateEgress: boolean;
  /** When set, /metrics needs `Authorization: Bearer <token>`. */
  metricsToken: string | null;
  /** Longest wait for one Postgres statement or usage flush before it counts as failed and its connection is closed. */
  storeTimeoutS: number;
  /** Longest wait for one Redis answer before the documented fallback (docs/scale-out.md). */
  redisTimeoutMs: number;
  /** With Redis away, let capped calls through on each node's own ledger instead of refusing them (503). */
  spendFailOpen: boolean;
  /** Usage events kept in memory while the store cannot be written; past this the oldest are dropped (and counted). */
  usageBufferMaxEvents: number;
  /** Texts whose scan verdict is kept in memory (src/pipeline/scan-cache.ts); 0 scans every text every time. */
  scanCacheEntries: number;
  /** OpenTelemetry tracing from the standard OTEL_* variables; null (off) without an endpoint. */
  tracing: TracingConfig | null;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

type Source = Record<string, string | undefined>;

type Parsed<T> = { ok: T } | { error: string };
const ok = <T>(value: T): Parsed<T> => ({ ok: value });
const fail = (error: string): Parsed<never> => ({ error });

interface Setting<K extends keyof Config> {
  key: K;
  env: string;
  /** An older name of the variable, still read when the current one is unset. */
  formerEnv?: string;
  flag?: string;
  parse: (raw: string) => Parsed<Config[K]>;
  fallback: () => Config[K];
}

const integer =
  (min: number, max: number) =>
  (raw: string): Parsed<number> => {
    if (!/^\d+$/.test(raw.trim())) return fail(`must be a whole number, got ${quotedSafely(raw)}`);
    const n = Number(raw);
    return n < min || n > max ? fail(`must be between ${min} and ${max}, got ${n}`) : ok(n);
  };

// Values are read trimmed, as numbers and addresses were: an environment file saved with
// Windows line endings ends each value in "\r", which refused `info` and `true` alone.
const oneOf =
  <T extends string>(...values: T[]) =>
  (raw: string): Parsed<T> =>
    (values as string[]).includes(raw.trim()) ? ok(raw.trim() as T) : fail(`must be one of ${values.join(", ")}, got ${quotedSafely(raw)}`);

const text = (raw: string): Parsed<string | null> => ok(raw.trim() === "" ? null : raw.trim());

const nonEmpty = (raw: string): Parsed<string> => (raw.trim() ? ok(raw.trim()) : fail("must not be empty"));

const url =
  (...protocols: string[]) =>
  (raw: string): Parsed<string | null> => {
    if (raw.trim() === "") return ok(null);
    try {
      const u = new URL(raw.trim());
      return protocols.includes(u.protocol) ? ok(raw.trim()) : fail(`must be a ${protocols.join(" or ")} URL, got "${u.protocol}"`);
    } catch {
      return fail("must be a URL");
    }
  };

/**
 * An address the gateway shows or sends on: the public URL goes into every sign-in link
 * and the trusted Origin, the issuer into discovery requests and logs. A user name or
 * password in it would be printed with each link; a query or fragment would break the
 * links built on it. Neither value is echoed (it may hold the password).
 */
const shownUrl =
  (...protocols: string[]) =>
  (raw: string): Parsed<string | null> => {
    const parsed = url(...protocols)(raw);
    if ("error" in parsed || parsed.ok === null) return parsed;
    const u = new URL(parsed.ok);
    if (u.username !== "" || u.password !== "") return fail("must not hold a user name or password");
    if (u.search !== "" || u.hash !== "") return fail("must not have a query (?...) or fragment (#...)");
    return parsed;
  };

const bool = (raw: string): Parsed<boolean> =>
  ["1", "true", "yes", "on"].includes(raw.trim().toLowerCase())
    ? ok(true)
    : ["0", "false", "no", "off", ""].includes(raw.trim().toLowerCase())
      ? ok(false)
      : fail(`must be true or false, got ${quotedSafely(raw)}`);

function masterKey(raw: string): Parsed<string | null> {
  if (raw.trim() === "") return ok(null);
  const bytes = Buffer.from(raw.trim(), "base64");
  // Never echo the value: it is a secret.
  return bytes.length === 32 ? ok(raw.trim()) : fail(`must be 32 bytes in base64 (openssl rand -base64 32), got ${bytes.length} bytes`);
}

const SETTINGS: Setting<keyof Config>[] = [
  { key: "host", env: "GW_HOST", flag: "host", parse: nonEmpty, fallback: () => "127.0.0.1" },
  { key: "port", env: "GW_PORT", flag: "port", parse: integer(0, 65535), fallback: () => 8080 },
  {
    key: "dataDir",
    env: "GW_DATA_DIR",
    flag: "data",
    parse: (r) => (r.trim() ? ok(resolve(r.trim())) : fail("must not be empty")),
    fallback: () => resolve("data"),
  },
  { key: "masterKey", env: "GW_MASTER_KEY", parse: masterKey, fallback: () => null },
  { key: "databaseUrl", env: "GW_DATABASE_URL", parse: url("postgres:", "postgresql:", "sqlite:"), fallback: () => null },
  { key: "redisUrl", env: "GW_REDIS_URL", parse: url("redis:", "rediss:"), fallback: () => null },
  { key: "publicUrl", env: "GW_PUBLIC_URL", flag: "public-url", parse: shownUrl("http:", "https:"), fallback: () => null },
  { key: "oidcIssuer", env: "GW_OIDC_ISSUER", parse: shownUrl("http:", "https:"), fallback: () => null },
  { key: "oidcClientId", env: "GW_OIDC_CLIENT_ID", parse: text, fallback: () => null },
  { key: "oidcClientSecret", env: "GW_OIDC_CLIENT_SECRET", parse: text, fallback: () => null },
  { key: "catalogPath", env: "GW_CATALOG", parse: (r) => ok(r.trim() ? resolve(r.trim()) : null), fallback: () => null },
  { key: "logLevel", env: "GW_LOG_LEVEL", parse: oneOf("debug", "info", "warn", "error", "silent"), fallback: () => "info" },
  { key: "rateLimitRequests", env: "GW_RATE_LIMIT_REQUESTS", parse: integer(1, 1_000_000_000), fallback: () => 1200 },
  { key: "rateLimitWindowS", env: "GW_RATE_LIMIT_WINDOW_S", parse: integer(1, 86_400), fallback: () => 60 },
  { key: "durability", env: "GW_DURABILITY", parse: oneOf("batched", "strict"), fallback: () => "batched" },
  { key: "maxBodyBytes", env: "GW_MAX_BODY_BYTES", parse: integer(1024, 512 * 1024 * 1024), fallback: () => 32 * 1024 * 1024 },
  // nginx's client_body_timeout. At most 240: Bun holds a request's own timeout at 255 s at most, and it must end after the reader's.
  { key: "bodyTimeoutS", env: "GW_BODY_TIMEOUT_S", parse: integer(1, 240), fallback: () => 60 },
  // The SSE decoder's own bound (256 MiB): twice the largest legitimate answer (2,048 embeddings of 3,072 dimensions as JSON, about 126 MB).
  { key: "maxAnswerBytes", env: "GW_MAX_ANSWER_BYTES", parse: integer(64 * 1024, 1024 * 1024 * 1024), fallback: () => MAX_EVENT_CHARS },
  { key: "trustProxy", env: "GW_TRUST_PROXY", parse: bool, fallback: () => false },
  { key: "usageRetentionDays", env: "GW_USAGE_RETENTION_DAYS", parse: integer(1, 3650), fallback: () => 30 },
  { key: "auditRetentionDays", env: "GW_AUDIT_RETENTION_DAYS", parse: integer(1, 36500), fallback: () => 365 },
  { key: "notificationRetentionDays", env: "GW_NOTIFICATION_RETENTION_DAYS", parse: integer(32, 36500), fallback: () => 90 },
  { key: "keyCacheTtlS", env: "GW_KEY_CACHE_TTL_S", parse: integer(1, 86_400), fallback: () => 60 },
  { key: "flushIntervalMs", env: "GW_FLUSH_INTERVAL_MS", parse: integer(10, 60_000), fallback: () => 250 },
  { key: "alertCheckIntervalS", env: "GW_ALERT_CHECK_INTERVAL_S", parse: integer(1, 86_400), fallback: () => 300 },
  { key: "flushMaxEvents", env: "GW_FLUSH_MAX_EVENTS", parse: integer(1, 100_000), fallback: () => 1000 },
  { key: "upstreamTimeoutS", env: "GW_UPSTREAM_TIMEOUT_S", parse: integer(1, 3600), fallback: () => 300 },
  // The official clients' own default timeout (10 minutes): a reasoning model may think that long in silence before its first token.
  { key: "streamIdleTimeoutS", env: "GW_STREAM_IDLE_TIMEOUT_S", parse: integer(0, 86_400), fallback: () => 600 },
  // Under Kubernetes' default grace (30 s) and the systemd unit's TimeoutStopSec (60 s): cut here, a stream is charged; killed there, it is not.
  { key: "drainTimeoutS", env: "GW_DRAIN_TIMEOUT_S", parse: integer(0, 86_400), fallback: () => 25 },
  {
    key: "allowPrivateEgress",
    env: "GW_ALLOW_PRIVATE_EGRESS",
    formerEnv: "GW_ALLOW_PRIVATE_PROVIDERS",
    parse: bool,
    fallback: () => false,
  },
  { key: "metricsToken", env: "GW_METRICS_TOKEN", parse: text, fallback: () => null },
  // Long enough for the flush of an outage's backlog; a timed-out flush is retried whole under its id, never written twice.
  { key: "storeTimeoutS", env: "GW_STORE_TIMEOUT_S", parse: integer(1, 3600), fallback: () => 30 },
  { key: "redisTimeoutMs", env: "GW_REDIS_TIMEOUT_MS", parse: integer(10, 10_000), fallback: () => 250 },
  { key: "spendFailOpen", env: "GW_SPEND_FAIL_OPEN", parse: bool, fallback: () => false },
  { key: "scanCacheEntries", env: "GW_SCAN_CACHE_ENTRIES", parse: integer(0, 10_000_000), fallback: () => 10_000 },
  { key: "usageBufferMaxEvents", env: "GW_USAGE_BUFFER_MAX_EVENTS", parse: integer(1000, 100_000_000), fallback: () => 1_000_000 },
];

/** Reads settings from flags (which win) and the environment, and validates them all at once. */
export function loadConfig(flags: Record<string, string | undefined> = {}, env: Source = process.env): Config {
  const out: Partial<Config> = {};
  const problems: string[] = [];
  for (const s of SETTINGS) {
    const fromFlag = s.flag ? flags[s.flag] : undefined;
    const fromFormer = env[s.env] === undefined && s.formerEnv ? env[s.formerEnv] : undefined;
    const raw = fromFlag ?? env[s.env] ?? fromFormer;
    const parsed = raw === undefined ? ok(s.fallback()) : s.parse(raw);
    const source = fromFlag !== undefined ? `--${s.flag}` : fromFormer !== undefined ? s.formerEnv : s.env;
    if ("error" in parsed) problems.push(`${source}: ${parsed.error}`);
    else (out as Record<string, unknown>)[s.key] = parsed.ok;
  }
  const oidc = [out.oidcIssuer, out.oidcClientId, out.oidcClientSecret].filter((v) => v != null).length;
  if (oidc !== 0 && oidc !== 3)
    problems.push("GW_OIDC_ISSUER, GW_OIDC_CLIENT_ID and GW_OIDC_CLIENT_SECRET go together: set all three or none");
  try {
    out.tracing = tracingConfigFrom(env);
  } catch (err) {
    problems.push((err as Error).message);
  }
  if (problems.length) throw new ConfigError(problems);
  return out as Config;
}

/**
 * `GW_*` variables the other commands and scripts read, and the README's client-side
 * ones (`GW_URL`, `GW_KEY` in a shell that calls the gateway): not settings, not typos.
 */
const NOT_SETTINGS = /^GW_(?:MOCK_|DEMO_|TEST_|BENCH_|MINIMAL_|START_|SERVE_WORKER$|URL$|KEY$)/;

/**
 * `GW_*` variables set but read by nothing, each with the setting it likely meant: a typo
 * (GW_MASTERKEY, GW_DATA_DIRECTORY) otherwise leaves the default in force without a word,
 * a generated master key where the operator set one. Warned at start, not refused: a
 * variable meant for something else must not stop a gateway.
 */
export function unknownSettings(env: Source = process.env): { variable: string; didYouMean?: string }[] {
  const known = new Set(SETTINGS.flatMap((s) => (s.formerEnv ? [s.env, s.formerEnv] : [s.env])));
  return Object.keys(env)
    .filter((v) => v.startsWith("GW_") && !known.has(v) && !NOT_SETTINGS.test(v))
    .sort()
    .map((variable) => {
      // A few letters off (GW_MASTERKEY), or a setting's name with more on it (GW_DATA_DIRECTORY).
      const near = [...known]
        .filter((k) => variable.startsWith(k) || distance(variable, k) <= 3)
        .sort((a, b) => distance(variable, a) - distance(variable, b))[0];
      return near ? { variable, didYouMean: near } : { variable };
    });
}

/** Edit distance (insertions, deletions, substitutions), for names of a few dozen characters. */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length] as number;
}

/** The settings table, for `--help`. */
export function describeSettings(): { env: string; flag?: string }[] {
  return SETTINGS.map((s) => ({ env: s.env, flag: s.flag }));
}
