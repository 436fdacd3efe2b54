/**
 * The node's agent sessions (`Mcp-Session-Id`): each an SDK server and its Streamable
 * HTTP transport, owned by the key (or dashboard user) that opened it. Bounded: the
 * least recently used session is closed past the limit, and any idle too long.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { LRUCache } from "lru-cache";

export interface AgentSession {
  id: string;
  /** `key:<id>`, `user:<id>` or `grant:<id>`: only this caller may use the session. */
  owner: string;
  orgId: string;
  server: Server;
  transport: WebStandardStreamableHTTPServerTransport;
}

export interface SessionLimits {
  max: number;
  idleMs: number;
  /** The clock idle time is measured by (tests move their own). */
  now?: () => number;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = { max: 10_000, idleMs: 30 * 60_000 };

export class SessionTable {
  private readonly sessions: LRUCache<string, AgentSession>;

  constructor(limits: SessionLimits = DEFAULT_SESSION_LIMITS) {
    this.sessions = new LRUCache<string, AgentSession>({
      max: limits.max,
      ttl: limits.idleMs,
      updateAgeOnGet: true,
      // No cached "now" (its default 1 ms resolution), so a moved clock is read at once.
      ...(limits.now ? { perf: { now: limits.now }, ttlResolution: 0 } : {}),
      dispose: (s) => void s.server.close().catch(() => {}),
    });
  }

  /** `idleMs`: a shorter idle limit for this session (a tool grant's, whose requests are refused once it expires). */
  add(session: AgentSession, idleMs?: number): void {
    // Idle sessions are closed here (and on lookup), not by a timer per session.
    this.sessions.purgeStale();
    this.sessions.set(session.id, session, idleMs === undefined ? undefined : { ttl: idleMs });
  }

  /** The session, only for its owner (anyone else is told it does not exist). */
  get(id: string, owner: string): AgentSession | null {
    const s = this.sessions.get(id);
    return s && s.owner === owner ? s : null;
  }

  remove(id: string): void {
    this.sessions.delete(id);
  }

  forOrg(orgId: string): AgentSession[] {
    return [...this.sessions.values()].filter((s) => s.orgId === orgId);
  }

  get size(): number {
    this.sessions.purgeStale();
    return this.sessions.size;
  }

  closeAll(): void {
    this.sessions.clear();
  }
}
