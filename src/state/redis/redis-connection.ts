/**
 * The node's command connection to Redis (GW_REDIS_URL): Lua scripts by SHA (loaded on
 * a NOSCRIPT answer), a deadline on every call so a slow Redis turns into the documented
 * fallback instead of a hung request (one sweep timer for all of them, see `startSweep`),
 * and each round trip's duration for /metrics.
 * Commands issued in the same tick share one write (Bun pipelines them). Commands fail
 * at once while disconnected (no offline queue): the callers' fallbacks decide, and a
 * watchdog reconnects.
 */
import { RedisClient } from "bun";

export interface RedisScript {
  lua: string;
  sha: string;
}

/** Every script the gateway runs, so a connection can load them all before serving. */
const SCRIPTS: RedisScript[] = [];

export function redisScript(lua: string): RedisScript {
  const script = { lua, sha: new Bun.CryptoHasher("sha1").update(lua).digest("hex") };
  SCRIPTS.push(script);
  return script;
}

/** Redis's clock in ms, as a Lua function `clock()` for scripts to include: one clock for every node. */
export const CLOCK_LUA = `
local function clock()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
`;

/** The key holding the data's mark, set once by whichever node reaches an empty Redis first (scripts read it too). */
export const EPOCH_KEY = "gw:epoch";
/** Not a registered script: run once a connect, so EVAL (no SHA to load first). */
const MARK_EPOCH = "redis.call('SET', KEYS[1], ARGV[1], 'NX') return redis.call('GET', KEYS[1])";
/** Watchdog ticks (a second each, by default) between two readings of the mark while connected. */
const EPOCH_EVERY_TICKS = 5;

export class RedisUnavailable extends Error {
  /** True when the command never left this process (no connection): resending it cannot apply it twice. */
  constructor(
    reason: string,
    readonly neverSent = false,
  ) {
    super(`Redis unavailable: ${reason}`);
    this.name = "RedisUnavailable";
  }
}

export interface RedisConnectionOptions {
  /** Longest wait for one answer before the caller falls back. */
  timeoutMs: number;
  /** Each round trip's duration in seconds. */
  observe?: (seconds: number) => void;
  /** How often a lost connection is retried. */
  reconnectEveryMs?: number;
}

/** A command waiting for its answer. */
interface Pending {
  command: string;
  /** performance.now() past which it is late. */
  due: number;
  /** Seen late by one sweep: the next gives it up. */
  late: boolean;
  /** Its deadline, for the error. */
  timeoutMs: number;
  reject: (err: Error) => void;
}

/** Sweeps per deadline: a late command is given up within two sweeps, a quarter of a deadline. */
const SWEEPS_PER_DEADLINE = 8;

export class RedisConnection {
  readonly client: RedisClient;
  private readonly inFlight = new Set<Pending>();
  private deadlines: ReturnType<typeof setInterval> | null = null;
  private readonly observe: (seconds: number) => void;
  private readonly watchdog: ReturnType<typeof setInterval>;
  private closed = false;
  private gaveUp = false;
  private epoch: string | null = null;
  private connectCount = 0;

  constructor(
    readonly url: string,
    private readonly opts: RedisConnectionOptions,
  ) {
    this.client = new RedisClient(url, {
      enableOfflineQueue: false,
      autoReconnect: true,
      connectionTimeout: Math.max(1000, opts.timeoutMs),
    });
    this.observe = opts.observe ?? (() => {});
    // The client reconnects by itself for a while, then gives up and closes; from then on
    // the watchdog tries again. It never touches a connection that is up or on its way:
    // connecting again would drop the answers still owed on it.
    this.client.onclose = () => {
      this.gaveUp = true;
    };
    // Which data this Redis holds: one restarted empty has lost the mark and takes a new
    // one, and what was counted against the old data must not be added to totals reloaded
    // since. A replica promoted with the data keeps the mark (a process's run id would not).
    this.client.onconnect = () => {
      this.connectCount++;
      this.epoch = null;
      this.markEpoch();
    };
    this.client.connect().catch(() => {});
    let ticks = 0;
    this.watchdog = setInterval(() => {
      // A FLUSHALL empties Redis without a reconnect: the mark is read (or set) again every few seconds too.
      if (this.client.connected && ++ticks % EPOCH_EVERY_TICKS === 0) this.markEpoch();
      if (this.closed || !this.gaveUp || this.client.connected) return;
      this.gaveUp = false;
      this.client.connect().catch(() => {
        this.gaveUp = true;
      });
    }, opts.reconnectEveryMs ?? 1000);
    this.watchdog.unref();
  }

  /** Reads the data's mark, setting one on a Redis that has none (empty since it started, or flushed). */
  private markEpoch(): void {
    void this.client
      .send("EVAL", [MARK_EPOCH, "1", EPOCH_KEY, crypto.randomUUID()])
      .then((mark) => {
        this.epoch = typeof mark === "string" ? mark : null;
      })
      .catch(() => {});
  }

  get connected(): boolean {
    return this.client.connected;
  }

  /** Connections made so far: one more means Redis took this node's credentials since it was last read, however briefly. */
  get connects(): number {
    return this.connectCount;
  }

  /** The mark of the data this connection last reached (`gw:epoch`); null until it is known after a (re)connect. */
  get dataEpoch(): string | null {
    return this.epoch;
  }

  /** One command with the deadline (a call's, unless told); rejects with RedisUnavailable when Redis cannot answer. */
  send(command: string, args: string[], timeoutMs = this.opts.timeoutMs): Promise<unknown> {
    if (!this.client.connected) return Promise.reject(new RedisUnavailable("not connected", true));
    const started = performance.now();
    return new Promise((resolve, reject) => {
      const pending: Pending = { command, due: started + timeoutMs, late: false, reject, timeoutMs };
      this.inFlight.add(pending);
      this.deadlines ??= this.startSweep();
      this.client.send(command, args).then(
        (answer) => {
          this.inFlight.delete(pending);
          this.observe((performance.now() - started) / 1000);
          resolve(answer);
        },
        (err) => {
          this.inFlight.delete(pending);
          this.observe((performance.now() - started) / 1000);
          // A script error is ours, not an outage; anything else (a closed socket) is an outage.
          if (err instanceof Error && /ERR|NOSCRIPT|WRONGTYPE/.test(err.message)) reject(err);
          else reject(new RedisUnavailable(String((err as Error)?.message ?? err)));
        },
      );
    });
  }

  /**
   * One timer for every command in flight, not one per command. A command past its
   * deadline is given up at the sweep after the one that first saw it late: between two
   * sweeps the event loop has read the socket, so an answer that arrived while this
   * process was busy (a long synchronous task holds every timer and every read alike)
   * is taken, never mistaken for a slow Redis. Commands give up between one and
   * 1.25 deadlines after they were sent. The timer stops while nothing is in flight.
   */
  private startSweep(): ReturnType<typeof setInterval> {
    const timer = setInterval(
      () => {
        if (this.inFlight.size === 0) {
          clearInterval(timer);
          this.deadlines = null;
          return;
        }
        const now = performance.now();
        for (const p of this.inFlight) {
          if (p.due > now) continue;
          if (!p.late) {
            p.late = true;
            continue;
          }
          this.inFlight.delete(p);
          p.reject(new RedisUnavailable(`no answer to ${p.command} within ${p.timeoutMs} ms`));
        }
      },
      Math.max(1, this.opts.timeoutMs / SWEEPS_PER_DEADLINE),
    );
    timer.unref();
    return timer;
  }

  /** Runs a script by SHA; the first call on a fresh Redis sends its text once. */
  eval(script: RedisScript, keys: string[], args: (string | number)[]): Promise<unknown> {
    const argv = [script.sha, String(keys.length), ...keys];
    for (const a of args) argv.push(typeof a === "string" ? a : String(a));
    return this.send("EVALSHA", argv).catch((err) => {
      if (!(err instanceof Error && err.message.includes("NOSCRIPT"))) throw err;
      argv[0] = script.lua;
      return this.send("EVAL", argv);
    });
  }

  /** Loads every script, so requests run them by SHA from the first one (a Redis restarted empty is caught by `eval`). */
  async loadScripts(timeoutMs = this.opts.timeoutMs): Promise<void> {
    for (const script of SCRIPTS) await this.send("SCRIPT", ["LOAD", script.lua], timeoutMs);
  }

  /** A second connection for pub/sub (a subscribed connection takes no other commands). */
  subscriber(): RedisClient {
    // No reconnecting by itself: the change bus notices the loss and subscribes afresh.
    return new RedisClient(this.url, {
      autoReconnect: false,
      enableOfflineQueue: false,
      connectionTimeout: Math.max(1000, this.opts.timeoutMs),
    });
  }

  close(): void {
    this.closed = true;
    clearInterval(this.watchdog);
    if (this.deadlines) clearInterval(this.deadlines);
    this.deadlines = null;
    this.client.close();
  }
}
