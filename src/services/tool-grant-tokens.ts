/**
 * Tool-grant tokens: what a model provider presents when it calls back into `/mcp`
 * for a hosted `mcp` tool that named a configured server (docs/mcp.md). A token is
 * the grant and its holder sealed with a key of its own (AES-256-GCM, derived from
 * the master key, so every node of a deployment opens it and nobody else reads or
 * forges it): the caller's key hash or session hash, its organization, the one
 * server, the tools allowed, and an expiry minutes away. It is not an API key: its
 * prefix never matches one, and only a route that declares it accepts it.
 */
import type { Identity } from "../domain/identity.ts";
import type { ToolGrant } from "../domain/mcp-records.ts";
import type { SecretBox } from "../lib/secret-box.ts";

export const TOOL_GRANT_PREFIX = "gw_mcpgrant_";

/** Long enough for a response's tool calls, short enough that a token the provider kept is soon worthless. */
export const TOOL_GRANT_TTL_MS = 10 * 60_000;

/** Sealed under this associated data, so no other sealed value of the gateway opens as a grant. */
const PURPOSE = "tool-grant/v1";

/** Whose grant it is: the key or dashboard session that made the call, by the hash the store keeps. */
export type GrantHolder = { kind: "key"; keyHash: string } | { kind: "session"; sessionIdHash: string };

export interface GrantClaims {
  holder: GrantHolder;
  orgId: string;
  grant: ToolGrant;
}

/** What is sealed: short names, since the token travels in every request the provider makes. */
interface Sealed {
  h: "k" | "s";
  x: string;
  o: string;
  g: string;
  s: string;
  n: string;
  t: string[] | null;
  e: number;
  r: string;
}

export const isToolGrantToken = (value: string): boolean => value.startsWith(TOOL_GRANT_PREFIX);

export function grantHolderOf(identity: Identity): GrantHolder {
  return identity.kind === "serviceAccount"
    ? { kind: "key", keyHash: identity.key.keyHash }
    : { kind: "session", sessionIdHash: identity.sessionIdHash };
}

export class ToolGrantTokens {
  constructor(
    private readonly box: SecretBox,
    private readonly now: () => number,
  ) {}

  /**
   * A token for `identity` to reach `server` (and, when given, only `tools`), valid for
   * TOOL_GRANT_TTL_MS from now, for the model call `callRequestId`.
   */
  issue(identity: Identity, server: { id: string; name: string }, tools: string[] | null, callRequestId: string): string {
    const holder = grantHolderOf(identity);
    const sealed: Sealed = {
      h: holder.kind === "key" ? "k" : "s",
      x: holder.kind === "key" ? holder.keyHash : holder.sessionIdHash,
      o: identity.organization.id,
      g: crypto.randomUUID(),
      s: server.id,
      n: server.name,
      t: tools,
      e: this.now() + TOOL_GRANT_TTL_MS,
      r: callRequestId,
    };
    const b64 = this.box.seal(JSON.stringify(sealed), PURPOSE);
    return TOOL_GRANT_PREFIX + b64.replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
  }

  /** The token's claims; null when it is not one of ours, was altered, or has expired. */
  open(token: string): GrantClaims | null {
    if (!isToolGrantToken(token) || token.length > 4096) return null;
    const b64 = token.slice(TOOL_GRANT_PREFIX.length).replaceAll("-", "+").replaceAll("_", "/");
    let s: Sealed;
    try {
      s = JSON.parse(this.box.open(b64, PURPOSE)) as Sealed;
    } catch {
      return null;
    }
    if (!(s.e > this.now())) return null;
    const holder: GrantHolder = s.h === "k" ? { kind: "key", keyHash: s.x } : { kind: "session", sessionIdHash: s.x };
    return { holder, orgId: s.o, grant: { id: s.g, serverId: s.s, server: s.n, tools: s.t, expiresAt: s.e, callRequestId: s.r } };
  }
}
