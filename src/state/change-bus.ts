/**
 * Changes that make cached state stale: a key revoked or updated, an organization's
 * providers or preferences changed. The service that wrote the change publishes it;
 * every node's caches evict on receipt. The in-process bus is enough for one node; a
 * shared one (Redis pub/sub) carries the same messages between nodes.
 */

export type StateChange =
  /** A key was revoked, updated or created: its record (by hash) must be read again. */
  | { type: "key"; keyHash: string }
  /** An organization's provider configurations changed (created, updated, deleted). */
  | { type: "providers"; orgId: string }
  /** An organization's preferences changed (budget, PII action, ...). */
  | { type: "preferences"; orgId: string }
  /** Changes may have been missed (a shared bus lost its subscription): drop every cached entry. */
  | { type: "all" };

export type ChangeListener = (change: StateChange) => void;

export interface ChangeBus {
  /**
   * Announces a change. Listeners on this node run before `publish` returns, so the
   * writer's next request already sees it; the promise resolves once the transport has
   * handed it to the other nodes, so an operation that awaits it answers only after
   * every node has been told.
   */
  publish(change: StateChange): void | Promise<void>;
  /** Registers a listener for every change (this node's and others'); returns its removal. */
  subscribe(listener: ChangeListener): () => void;
  /** Stops delivering (a shared bus closes its connection). */
  close(): Promise<void>;
}

/** One node: delivery is a loop over the listeners. */
export class InProcessChangeBus implements ChangeBus {
  private readonly listeners = new Set<ChangeListener>();

  publish(change: StateChange): void {
    for (const listener of this.listeners) listener(change);
  }

  subscribe(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.listeners.clear();
  }
}
