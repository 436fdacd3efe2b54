/**
 * Tells every node about changes that invalidate what nodes hold in memory: a key
 * revoked or updated, an organization's providers or preferences changed. `publish`
 * runs this node's listeners at once, then sends the change on one channel; every
 * other node runs its listeners on receipt.
 *
 * A node that is not subscribed could miss a change, so losing the subscription emits
 * `{ type: "all" }` (drop every cache), and so does getting it back: nothing cached
 * before or during the gap is served afterwards. While it is away, "all" is emitted
 * again every `resyncEveryMs` (caches reload from the store), bounding staleness to that.
 *
 * A subscription can also die without its socket closing (a peer gone without a reset,
 * a NAT or proxy that forgot the flow): nothing arrives and nothing says so. Each node
 * publishes a beat every `resyncEveryMs` and every subscription hears all of them, so
 * a subscription that heard nothing for `silentAfterMs` is treated as lost.
 *
 * A publish that fails is kept and sent again every `resyncEveryMs` until Redis takes it:
 * this node's command connection can fail (a deadline, a reset) while the other nodes'
 * subscriptions stay up, and they would then never learn of the revocation.
 */
import type { RedisClient } from "bun";
import type { ChangeBus, ChangeListener, StateChange } from "../change-bus.ts";
import type { RedisConnection } from "./redis-connection.ts";

const CHANNEL = "gw:changes";

/** One letter per kind on the wire, then the id: messages stay small. */
const TAG = { key: "k", providers: "v", preferences: "p", all: "a" } as const;

/**
 * Unsent changes kept at most; past it they collapse into one "all" (every node drops
 * its caches), so an outage during a burst of changes cannot grow memory without end.
 */
const MAX_UNSENT = 1_000;
const RESYNC_ALL = "a:";
/** The beat: carries nothing, proves the channel still reaches this subscription. */
const BEAT = "h:";

function decode(message: string): StateChange | null {
  const id = message.slice(2);
  switch (message[0]) {
    case "k":
      return { type: "key", keyHash: id };
    case "v":
      return { type: "providers", orgId: id };
    case "p":
      return { type: "preferences", orgId: id };
    case "a":
      return { type: "all" };
    default:
      return null;
  }
}

export class RedisChangeBus implements ChangeBus {
  private readonly listeners = new Set<ChangeListener>();
  private sub: RedisClient | null = null;
  private subscribed = false;
  private closed = false;
  private readonly timer: ReturnType<typeof setInterval>;
  private resubscribing: Promise<void> | null = null;
  /** Wire messages whose PUBLISH failed, sent again on the timer (a set: a repeat is one eviction). */
  private readonly unsent = new Set<string>();
  private resending: Promise<void> | null = null;
  /** When this subscription last heard anything (a change or a beat). */
  private lastHeard = 0;

  constructor(
    private readonly redis: RedisConnection,
    opts: { resyncEveryMs: number; silentAfterMs?: number } = { resyncEveryMs: 1000 },
  ) {
    // A few beats missed in a row, not one: a busy node's timers run late.
    const silentAfterMs = opts.silentAfterMs ?? Math.max(5_000, opts.resyncEveryMs * 5);
    this.timer = setInterval(() => {
      if (this.closed) return;
      if (this.unsent.size > 0) void this.resend();
      if (this.subscribed) {
        void this.redis.send("PUBLISH", [CHANNEL, BEAT]).catch(() => {});
        if (Date.now() - this.lastHeard <= silentAfterMs) return;
        // Silent too long: the subscription is gone though its socket says nothing.
        this.subscribed = false;
      }
      this.emit({ type: "all" });
      void this.connect();
    }, opts.resyncEveryMs);
    this.timer.unref();
  }

  get isSubscribed(): boolean {
    return this.subscribed;
  }

  /** Changes this node announced that Redis has not taken yet (0 in the normal case). */
  get unsentChanges(): number {
    return this.unsent.size;
  }

  /** Subscribes; resolves once listening (rejects if Redis cannot be reached). */
  start(): Promise<void> {
    return this.connect(true);
  }

  subscribe(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Runs this node's listeners now; resolves once Redis has passed the change to the other nodes' subscriptions. */
  async publish(change: StateChange): Promise<void> {
    this.emit(change);
    const id = change.type === "key" ? change.keyHash : change.type === "all" ? "" : change.orgId;
    const message = `${TAG[change.type]}:${id}`;
    // Not "Redis is away for everyone": the others' subscriptions may be up and hear nothing.
    await this.redis.send("PUBLISH", [CHANNEL, message]).catch(() => this.keep(message));
  }

  private keep(message: string): void {
    if (this.unsent.has(RESYNC_ALL)) return;
    if (this.unsent.size >= MAX_UNSENT) {
      this.unsent.clear();
      this.unsent.add(RESYNC_ALL);
      return;
    }
    this.unsent.add(message);
  }

  /** Sends the kept changes in order; one still failing stays for the next tick. */
  private resend(): Promise<void> {
    this.resending ??= (async () => {
      for (const message of [...this.unsent]) {
        try {
          await this.redis.send("PUBLISH", [CHANNEL, message]);
          this.unsent.delete(message);
        } catch {
          return;
        }
      }
    })().finally(() => {
      this.resending = null;
    });
    return this.resending;
  }

  /** Stops; changes still unsent get one last try (a node stopping cleanly leaves none behind if Redis answers). */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    this.sub?.close();
    if (this.unsent.size > 0) await this.resend();
  }

  private emit(change: StateChange): void {
    for (const listener of this.listeners) listener(change);
  }

  private receive = (message: string): void => {
    this.lastHeard = Date.now();
    const change = decode(message);
    if (change) this.emit(change);
  };

  private connect(first = false): Promise<void> {
    this.resubscribing ??= (async () => {
      this.sub?.close();
      const sub = this.redis.subscriber();
      this.sub = sub;
      sub.onclose = () => {
        if (this.sub !== sub || !this.subscribed) return;
        this.subscribed = false;
        this.emit({ type: "all" });
      };
      try {
        await sub.connect();
        await sub.subscribe(CHANNEL, this.receive);
        this.lastHeard = Date.now();
        this.subscribed = true;
        // Changes published while we were away were missed: start from the store again.
        if (!first) this.emit({ type: "all" });
      } catch (err) {
        sub.close();
        if (first) throw err;
      }
    })().finally(() => {
      this.resubscribing = null;
    });
    return this.resubscribing;
  }
}
