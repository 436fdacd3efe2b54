/** Tool-grant tokens: sealed, bound to their holder, server and tools, refused once expired or altered, never an API key. */
import { describe, expect, test } from "bun:test";
import { apiKeyType } from "../../src/domain/api-key.ts";
import type { Identity } from "../../src/domain/identity.ts";
import { SecretBox } from "../../src/lib/secret-box.ts";
import { isToolGrantToken, TOOL_GRANT_TTL_MS, ToolGrantTokens } from "../../src/services/tool-grant-tokens.ts";

const box = new SecretBox(new Uint8Array(32).fill(7));
const keyHolder = { kind: "serviceAccount", key: { keyHash: "a".repeat(64) }, organization: { id: "org_1" } } as unknown as Identity;
const userHolder = { kind: "user", sessionIdHash: "b".repeat(64), organization: { id: "org_1" } } as unknown as Identity;
const wiki = { id: "mcp_1", name: "wiki" };

function clock(start: number) {
  const c = { now: start };
  return { c, tokens: new ToolGrantTokens(box, () => c.now) };
}

describe("a tool grant", () => {
  test("opens to its holder, organization, server and tools, and expires after its minutes", () => {
    const { c, tokens } = clock(1_000_000);
    const token = tokens.issue(keyHolder, wiki, ["weather"], "req-1");
    const claims = tokens.open(token)!;
    expect(claims.holder).toEqual({ kind: "key", keyHash: "a".repeat(64) });
    expect(claims.orgId).toBe("org_1");
    expect(claims.grant).toMatchObject({
      serverId: "mcp_1",
      server: "wiki",
      tools: ["weather"],
      expiresAt: 1_000_000 + TOOL_GRANT_TTL_MS,
      callRequestId: "req-1",
    });
    c.now += TOOL_GRANT_TTL_MS - 1;
    expect(tokens.open(token)).not.toBeNull();
    c.now += 1;
    expect(tokens.open(token)).toBeNull();
  });

  test("a session's grant names the session, and every grant has its own id", () => {
    const { tokens } = clock(0);
    const a = tokens.open(tokens.issue(userHolder, wiki, null, "req-2"))!;
    const b = tokens.open(tokens.issue(userHolder, wiki, null, "req-2"))!;
    expect(a.holder).toEqual({ kind: "session", sessionIdHash: "b".repeat(64) });
    expect(a.grant.tools).toBeNull();
    expect(a.grant.id).not.toBe(b.grant.id);
  });

  test("reveals nothing it binds, and is never taken for an API key", () => {
    const { tokens } = clock(0);
    const token = tokens.issue(keyHolder, wiki, ["weather"], "req-1");
    expect(isToolGrantToken(token)).toBe(true);
    expect(apiKeyType(token)).toBeNull();
    expect(token).toMatch(/^gw_mcpgrant_[A-Za-z0-9_-]+$/);
    for (const inside of ["a".repeat(64), "org_1", "mcp_1", "wiki", "weather", "req-1"]) expect(token).not.toContain(inside);
  });

  test("an altered token, one sealed with another key, or another kind of sealed value does not open", () => {
    const { tokens } = clock(0);
    const token = tokens.issue(keyHolder, wiki, null, "req-3");
    const flipped = token.slice(0, -3) + (token.at(-3) === "A" ? "B" : "A") + token.slice(-2);
    expect(tokens.open(flipped)).toBeNull();
    const other = new ToolGrantTokens(new SecretBox(new Uint8Array(32).fill(8)), () => 0);
    expect(other.open(token)).toBeNull();
    // A provider key sealed by the same box is not a grant: the grant's purpose is bound into the seal.
    expect(tokens.open(`gw_mcpgrant_${box.seal(JSON.stringify({ e: 1e15 }), "mcp_1")}`)).toBeNull();
    expect(tokens.open("gw_mcpgrant_")).toBeNull();
    expect(tokens.open("gw_live_notagrant")).toBeNull();
  });
});
