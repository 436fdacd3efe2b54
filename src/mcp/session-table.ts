/**
 * The node's agent sessions (`Mcp-Session-Id`): each an SDK server and its Streamable
 * HTTP transport, owned by the key (or dashboard user) that opened it. Bounded: the
 * least recently used session is closed past the limit, and any idle too long; and one
 * owner holds at most `perOwner` (opening another closes its oldest), so no caller can
 * crowd the others' sessions out of the table.
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
  /** Sessions one owner may hold (default 100). */
  perOwner?: number;
  /** The clock idle time is measured by (tests move their own). */
  now?: () => number;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = { max: 10_000, idleMs: 30 * 60_000, perOwner: 100 };

export class SessionTable {
  private readonly sessions: LRUCache<string, AgentSession>;
  /** Each owner's session ids, oldest first (kept in step with the table by `dispose`). */
  private readonly byOwner = new Map<string, Set<string>>();
  private readonly perOwner: number;

  constructor(limits: SessionLimits = DEFAULT_SESSION_LIMITS) {
    this.perOwner = limits.perOwner ?? 100;
    this.sessions = new LRUCache<string, AgentSession>({
      max: limits.max,
      ttl: limits.idleMs,
      updateAgeOnGet: true,
      // No cached "now" (its default 1 ms resolution), so a moved clock is read at once.
      ...(limits.now ? { perf: { now: limits.now }, ttlResolution: 0 } : {}),
      dispose: (s, id) => {
        const mine = this.byOwner.get(s.owner);
        mine?.delete(id);
        if (mine?.size === 0) this.byOwner.delete(s.owner);
        void s.server.close().catch(() => {});
      },
    });
  }

  /** `idleMs`: a shorter idle limit for this session (a tool grant's, whose requests are refused once it expires). */
  add(session: AgentSession, idleMs?: number): void {
    // Idle sessions are closed here (and on lookup), not by a timer per session.
    this.sessions.purgeStale();
    let mine = this.byOwner.get(session.owner);
    if (!mine) this.byOwner.set(session.owner, (mine = new Set()));
    while (mine.size >= this.perOwner) this.sessions.delete(mine.values().next().value as string);
    mine.add(session.id);
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
