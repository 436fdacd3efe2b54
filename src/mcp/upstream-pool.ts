/**
 * The node's connections to tool servers: one per server, opened on first use and
 * shared by every agent session of the organization (the credentials are the server's,
 * not the agent's). A changed record (new address or credentials) opens a new one;
 * bounded in number and closed when idle.
 */
import { LRUCache } from "lru-cache";
import type { SecretBox } from "../lib/secret-box.ts";
import type { McpCredentials, McpServerRecord } from "../domain/mcp-records.ts";
import { credentialValues, cutCredentials, Upstream } from "./upstream.ts";

const MAX_CONNECTIONS = 500;
const IDLE_MS = 10 * 60_000;

export interface UpstreamLimits {
  /** The most one response of a server may carry. */
  maxResponseBytes: number;
  /** The longest a tool call that reports progress may take. */
  maxCallMs: number;
}

export class UpstreamPool {
  private readonly open = new LRUCache<string, Upstream>({
    max: MAX_CONNECTIONS,
    ttl: IDLE_MS,
    updateAgeOnGet: true,
    dispose: (upstream) => void upstream.close(),
  });

  constructor(
    private readonly box: SecretBox,
    /** Told when a server's tool list changed, so the organization's agent sessions can be told too. */
    private readonly onToolsChanged: (orgId: string) => void,
    private readonly limits: UpstreamLimits = { maxResponseBytes: 32 * 1024 * 1024, maxCallMs: 300_000 },
  ) {}

  /** The longest a tool call may take however often the server reports progress (each report restarts the SDK's 60 s timeout). */
  get maxCallMs(): number {
    return this.limits.maxCallMs;
  }

  /** A connected client for `server` (its current version). Throws when it cannot connect. */
  async get(server: McpServerRecord): Promise<Upstream> {
    const key = `${server.id}@${server.updatedAt}`;
    let upstream = this.open.get(key);
    if (upstream?.broken) this.open.delete(key);
    if (!upstream || upstream.broken) {
      // Idle connections are closed when a new one opens (and on lookup), not by a timer each.
      this.open.purgeStale();
      upstream = new Upstream(
        server,
        this.credentials(server),
        () => this.onToolsChanged(server.orgId),
        this.limits.maxResponseBytes,
        this.limits.maxCallMs,
      );
      this.open.set(key, upstream);
    }
    try {
      await upstream.ready;
    } catch (err) {
      // A failed connection is not kept: the next request tries again.
      if (this.open.peek(key) === upstream) this.open.delete(key);
      throw err;
    }
    return upstream;
  }

  /** `text` without `server`'s stored credentials (and the OAuth token its connection holds). */
  withoutCredentials(server: McpServerRecord, text: string): string {
    const open = this.open.peek(`${server.id}@${server.updatedAt}`);
    return open ? open.withoutCredentials(text) : cutCredentials(text, credentialValues(this.credentials(server)));
  }

  /** Closes connections of servers that are no longer configured as they were. */
  retire(orgId: string, current: McpServerRecord[]): void {
    const live = new Set(current.map((s) => `${s.id}@${s.updatedAt}`));
    for (const [key, upstream] of this.open.entries()) if (upstream.server.orgId === orgId && !live.has(key)) this.open.delete(key);
  }

  closeAll(): void {
    this.open.clear();
  }

  private credentials(server: McpServerRecord): McpCredentials {
    if (server.secretCiphertext === null) return { type: "none" };
    return JSON.parse(this.box.open(server.secretCiphertext, server.id)) as McpCredentials;
  }
}
