/**
 * The node's command connection to Redis (GW_REDIS_URL): Lua scripts by SHA (loaded on
 * a NOSCRIPT answer), a deadline on every call so a slow Redis turns into the documented
 * fallback instead of a hung request, and each round trip's duration for /metrics.
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

export class RedisConnection {
  readonly client: RedisClient;
  private readonly observe: (seconds: number) => void;
  private readonly watchdog: ReturnType<typeof setInterval>;
  private closed = false;
  private gaveUp = false;

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
    this.client.connect().catch(() => {});
    this.watchdog = setInterval(() => {
      if (this.closed || !this.gaveUp || this.client.connected) return;
      this.gaveUp = false;
      this.client.connect().catch(() => {
        this.gaveUp = true;
      });
    }, opts.reconnectEveryMs ?? 1000);
    this.watchdog.unref();
  }

  get connected(): boolean {
    return this.client.connected;
  }

  /** One command with the deadline; rejects with RedisUnavailable when Redis cannot answer. */
  async send(command: string, args: string[]): Promise<unknown> {
    if (!this.client.connected) throw new RedisUnavailable("not connected", true);
    const started = performance.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      return await Promise.race([
        this.client.send(command, args),
        new Promise<never>((_, reject) => {
          const ms = this.opts.timeoutMs;
          const arm = (due: number) => {
            timer = setTimeout(() => {
              // A timer that fires late means this process was busy (a long synchronous task),
              // not that Redis was slow: the answer may be waiting unread. Wait once more.
              if (performance.now() - due > ms / 2) arm(performance.now() + ms);
              else reject(new RedisUnavailable(`no answer to ${command} within ${ms} ms`));
            }, ms);
          };
          arm(started + ms);
        }),
      ]);
    } catch (err) {
      if (err instanceof RedisUnavailable) throw err;
      // A script error is ours, not an outage; anything else (a closed socket) is an outage.
      if (err instanceof Error && /ERR|NOSCRIPT|WRONGTYPE/.test(err.message)) throw err;
      throw new RedisUnavailable(String((err as Error)?.message ?? err));
    } finally {
      clearTimeout(timer);
      this.observe((performance.now() - started) / 1000);
    }
  }

  /** Runs a script by SHA; the first call on a fresh Redis sends its text once. */
  async eval(script: RedisScript, keys: string[], args: (string | number)[]): Promise<unknown> {
    const rest = [String(keys.length), ...keys, ...args.map(String)];
    try {
      return await this.send("EVALSHA", [script.sha, ...rest]);
    } catch (err) {
      if (err instanceof Error && err.message.includes("NOSCRIPT")) return this.send("EVAL", [script.lua, ...rest]);
      throw err;
    }
  }

  /** Loads every script, so requests run them by SHA from the first one (a Redis restarted empty is caught by `eval`). */
  async loadScripts(): Promise<void> {
    for (const script of SCRIPTS) await this.send("SCRIPT", ["LOAD", script.lua]);
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
    this.client.close();
  }
}
