/**
 * The node's agent sessions (`Mcp-Session-Id`): each an SDK server and its Streamable
 * HTTP transport, owned by the key (or dashboard user) that opened it. Bounded: the
 * least recently used session is closed past the limit, and any idle too long; one
 * owner holds at most `perOwner` (opening another closes its oldest; a tool grant's
 * sessions count as its holder's, since every model call makes a new grant), and one
 * organization at most `perOrg`, so no caller and no organization can crowd the
 * others' sessions out of the table.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { LRUCache } from "lru-cache";

export interface AgentSession {
  id: string;
  /** `key:<id>`, `user:<id>` or `grant:<id>`: only this caller may use the session. */
  owner: string;
  /** Whose allowance the session counts against when not its owner's: a grant's holder (`key:<id>`, `user:<id>`). */
  holder?: string;
  orgId: string;
  server: Server;
  transport: WebStandardStreamableHTTPServerTransport;
}

export interface SessionLimits {
  max: number;
  idleMs: number;
  /** Sessions one owner may hold (default 100). */
  perOwner?: number;
  /** Sessions one organization may hold (default: no limit but the table's). */
  perOrg?: number;
  /** The clock idle time is measured by (tests move their own). */
  now?: () => number;
}

/** A node's: a quarter of the table per organization, so it takes four to fill it. */
export const DEFAULT_SESSION_LIMITS: SessionLimits = { max: 10_000, idleMs: 30 * 60_000, perOwner: 100, perOrg: 2_500 };

export class SessionTable {
  private readonly sessions: LRUCache<string, AgentSession>;
  /** Each holder's and each organization's session ids, oldest first (kept in step with the table by `dispose`). */
  private readonly byHolder = new Map<string, Set<string>>();
  private readonly byOrg = new Map<string, Set<string>>();
  private readonly perOwner: number;
  private readonly perOrg: number;

  constructor(limits: SessionLimits = DEFAULT_SESSION_LIMITS) {
    this.perOwner = limits.perOwner ?? 100;
    this.perOrg = limits.perOrg ?? Number.POSITIVE_INFINITY;
    this.sessions = new LRUCache<string, AgentSession>({
      max: limits.max,
      ttl: limits.idleMs,
      updateAgeOnGet: true,
      // No cached "now" (its default 1 ms resolution), so a moved clock is read at once.
      ...(limits.now ? { perf: { now: limits.now }, ttlResolution: 0 } : {}),
      dispose: (s, id) => {
        forget(this.byHolder, s.holder ?? s.owner, id);
        forget(this.byOrg, s.orgId, id);
        void s.server.close().catch(() => {});
      },
    });
  }

  /**
   * Ends every session's standalone GET stream (server-to-client notifications, never a
   * call), keeping the sessions: at shutdown those streams would hold the drain open for
   * as long as their clients stay, and a client reconnects on its own.
   */
  endStandaloneStreams(): void {
    for (const s of this.sessions.values()) s.transport.closeStandaloneSSEStream();
  }

  /** `idleMs`: a shorter idle limit for this session (a tool grant's, whose requests are refused once it expires). */
  add(session: AgentSession, idleMs?: number): void {
    // Idle sessions are closed here (and on lookup), not by a timer per session.
    this.sessions.purgeStale();
    this.makeRoom(this.byHolder, session.holder ?? session.owner, this.perOwner, session.id);
    this.makeRoom(this.byOrg, session.orgId, this.perOrg, session.id);
    this.sessions.set(session.id, session, idleMs === undefined ? undefined : { ttl: idleMs });
  }

  /** Closes the group's oldest sessions until `id` fits within `limit`, then counts it in. */
  private makeRoom(groups: Map<string, Set<string>>, group: string, limit: number, id: string): void {
    let ids = groups.get(group);
    if (!ids) groups.set(group, (ids = new Set()));
    while (ids.size >= limit) this.sessions.delete(ids.values().next().value as string);
    ids.add(id);
  }

  /**
   * The session, only for its owner (anyone else is told it does not exist). Only the
   * owner's use counts as use: another caller presenting the id neither keeps it alive
   * nor moves it up the least-recently-used order.
   */
  get(id: string, owner: string): AgentSession | null {
    const found = this.sessions.peek(id);
    if (found === undefined) {
      // Unknown, or idle too long: looking it up closes a stale one.
      this.sessions.get(id);
      return null;
    }
    return found.owner === owner ? (this.sessions.get(id) ?? null) : null;
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

function forget(groups: Map<string, Set<string>>, group: string, id: string): void {
  const ids = groups.get(group);
  ids?.delete(id);
  if (ids?.size === 0) groups.delete(group);
}
