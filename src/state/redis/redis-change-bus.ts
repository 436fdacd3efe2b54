/**
 * Tells every node about changes that invalidate what nodes hold in memory: a key
 * revoked or updated, an organization's providers or preferences changed. The node
 * that makes the change evicts its own caches at once and publishes on one channel;
 * every node (itself included, harmlessly) evicts on receipt.
 *
 * A node that is not subscribed could miss a change, so losing the subscription
 * clears every cache, and so does getting it back: nothing cached before or during the
 * gap is served afterwards. While it is away, `onResync` also runs every
 * `resyncEveryMs` (the caches reload from the store), bounding staleness to that.
 */
import type { RedisClient } from "bun";
import type { RedisConnection } from "./redis-connection.ts";

const CHANNEL = "gw:changes";

export type Change = { kind: "key"; keyHash: string } | { kind: "providers"; orgId: string } | { kind: "preferences"; orgId: string };

export interface ChangeHandlers {
  onKey(keyHash: string): void;
  onProviders(orgId: string): void;
  onPreferences(orgId: string): void;
  /** Forget everything cached: changes may have been missed. */
  onResync(): void;
}

const PREFIX: Record<Change["kind"], string> = { key: "k", providers: "v", preferences: "p" };

export class RedisChangeBus {
  private sub: RedisClient | null = null;
  private subscribed = false;
  private closed = false;
  private readonly timer: ReturnType<typeof setInterval>;
  private resubscribing: Promise<void> | null = null;

  constructor(
    private readonly redis: RedisConnection,
    private readonly handlers: ChangeHandlers,
    private readonly opts: { resyncEveryMs: number } = { resyncEveryMs: 1000 },
  ) {
    this.timer = setInterval(() => {
      if (this.closed || this.subscribed) return;
      this.handlers.onResync();
      void this.subscribe();
    }, opts.resyncEveryMs);
    this.timer.unref();
  }

  get isSubscribed(): boolean {
    return this.subscribed;
  }

  /** Subscribes; resolves once listening (rejects if Redis cannot be reached). */
  start(): Promise<void> {
    return this.subscribe(true);
  }

  /** Applies the change here, then tells the other nodes. */
  async publish(change: Change): Promise<void> {
    this.apply(change);
    const id = change.kind === "key" ? change.keyHash : change.orgId;
    // A failed publish means Redis is away for everyone: every node clears its caches on losing it.
    await this.redis.send("PUBLISH", [CHANNEL, `${PREFIX[change.kind]}:${id}`]).catch(() => {});
  }

  close(): void {
    this.closed = true;
    clearInterval(this.timer);
    this.sub?.close();
  }

  private apply(change: Change): void {
    if (change.kind === "key") this.handlers.onKey(change.keyHash);
    else if (change.kind === "providers") this.handlers.onProviders(change.orgId);
    else this.handlers.onPreferences(change.orgId);
  }

  private receive = (message: string): void => {
    const id = message.slice(2);
    const tag = message.slice(0, 1);
    if (tag === "k") this.handlers.onKey(id);
    else if (tag === "v") this.handlers.onProviders(id);
    else if (tag === "p") this.handlers.onPreferences(id);
  };

  private subscribe(first = false): Promise<void> {
    this.resubscribing ??= (async () => {
      this.sub?.close();
      const sub = this.redis.subscriber();
      this.sub = sub;
      sub.onclose = () => {
        if (this.sub !== sub || !this.subscribed) return;
        this.subscribed = false;
        this.handlers.onResync();
      };
      try {
        await sub.connect();
        await sub.subscribe(CHANNEL, this.receive);
        this.subscribed = true;
        // Changes published while we were away were missed: start from the store again.
        if (!first) this.handlers.onResync();
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
