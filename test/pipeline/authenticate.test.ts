/**
 * The tool grant as a credential kind: taken by `authenticateOrGrant` alone (the `/mcp`
 * route's admission), standing for its key only while that key is valid and in the
 * grant's organization; everywhere else a grant is refused before any key lookup. And
 * the bearer token read from `Authorization`, by hand, as the expression it replaced did.
 */
import { describe, expect, test } from "bun:test";
import { ApiKeyHasher } from "../../src/domain/api-key.ts";
import type { Identity } from "../../src/domain/identity.ts";
import type { KeyPrincipal } from "../../src/domain/types.ts";
import { ApiError } from "../../src/lib/errors.ts";
import { SecretBox } from "../../src/lib/secret-box.ts";
import { Authenticator, bearerToken, presentedKey } from "../../src/pipeline/authenticate.ts";
import { ToolGrantTokens } from "../../src/services/tool-grant-tokens.ts";
import type { Store } from "../../src/store/store.ts";

const NOW = 1_000_000;
const hasher = new ApiKeyHasher(new Uint8Array(32).fill(1));
const grants = new ToolGrantTokens(new SecretBox(new Uint8Array(32).fill(2)), () => NOW);

function principal(orgId: string, revokedAt: number | null = null): KeyPrincipal {
  return {
    key: { id: "key_1", orgId, keyHash: "h".repeat(64), keyType: "live", revokedAt } as KeyPrincipal["key"],
    serviceAccount: { id: "sa_1", role: "member" } as KeyPrincipal["serviceAccount"],
    organization: { id: orgId } as KeyPrincipal["organization"],
  };
}

/** A store that knows one dashboard session (by its hash), while `live` says it has not ended. */
function sessionStore(live: { ended: boolean }): Store {
  const idHash = "s".repeat(64);
  return {
    getSession: async (h: string) => (h === idHash && !live.ended ? { idHash, userId: "user_1", createdAt: NOW, lastSeenAt: NOW } : null),
    getUser: async () => ({ id: "user_1", orgId: "org_1", role: "admin", email: "a@example.com" }),
    getOrganization: async () => ({ id: "org_1" }),
  } as unknown as Store;
}

function authenticator(found: KeyPrincipal | null, store = {} as Store) {
  const looked: string[] = [];
  const auth = new Authenticator({
    hasher,
    keys: { get: (hash) => (looked.push(hash), found) },
    store,
    trustedOrigins: [],
    secureCookies: false,
    now: () => NOW,
    grants,
  });
  return { auth, looked };
}

const holder = { kind: "serviceAccount", key: { keyHash: "h".repeat(64) }, organization: { id: "org_1" } } as unknown as Identity;
const bearer = (token: string) => new Request("http://gw.test/mcp", { headers: { authorization: `Bearer ${token}` } });

/** `call` may throw or reject: authentication by key answers synchronously from memory when it can. */
async function refused(call: () => unknown): Promise<ApiError> {
  const err = await Promise.resolve()
    .then(call)
    .catch((e) => e);
  expect(err).toBeInstanceOf(ApiError);
  expect((err as ApiError).status).toBe(401);
  return err as ApiError;
}

describe("a tool grant", () => {
  test("stands for its key, with the grant attached, where the route takes grants", async () => {
    const { auth, looked } = authenticator(principal("org_1"));
    const { identity, grant } = await auth.authenticateOrGrant(
      bearer(grants.issue(holder, { id: "mcp_1", name: "wiki" }, ["weather"], "req-1")),
    );
    expect(identity.kind === "serviceAccount" && identity.key.id).toBe("key_1");
    expect(grant).toMatchObject({ serverId: "mcp_1", server: "wiki", tools: ["weather"] });
    expect(looked).toEqual(["h".repeat(64)]);
  });

  test("is refused when its key is revoked, gone, or now in another organization", async () => {
    const token = grants.issue(holder, { id: "mcp_1", name: "wiki" }, null, "req-1");
    expect((await refused(() => authenticator(principal("org_1", NOW - 1)).auth.authenticateOrGrant(bearer(token)))).message).toContain(
      "revoked",
    );
    await refused(() => authenticator(null).auth.authenticateOrGrant(bearer(token)));
    expect((await refused(() => authenticator(principal("org_2")).auth.authenticateOrGrant(bearer(token)))).message).toContain("not valid");
  });

  test("is refused as a credential by plain authentication, before any key is looked up", async () => {
    const { auth, looked } = authenticator(principal("org_1"));
    const err = await refused(() => auth.authenticate(bearer(grants.issue(holder, { id: "mcp_1", name: "wiki" }, null, "req-1"))));
    expect(err.message).toContain("accepted only at /mcp");
    expect(looked).toEqual([]);
  });

  test("a route that takes grants still takes keys, and a key there carries no grant", async () => {
    const { auth } = authenticator(principal("org_1"));
    const key = `gw_live_${"A".repeat(40)}`;
    const { identity, grant } = await auth.authenticateOrGrant(bearer(key));
    expect(identity.kind).toBe("serviceAccount");
    expect(grant).toBeNull();
  });

  test("a dashboard session's grant stands for that session while it lasts", async () => {
    const live = { ended: false };
    const { auth } = authenticator(null, sessionStore(live));
    const user = { kind: "user", sessionIdHash: "s".repeat(64), organization: { id: "org_1" } } as unknown as Identity;
    const token = grants.issue(user, { id: "mcp_1", name: "wiki" }, null, "req-2");
    const { identity, grant } = await auth.authenticateOrGrant(bearer(token));
    expect(identity.kind === "user" && identity.id).toBe("user_1");
    expect(grant?.serverId).toBe("mcp_1");
    live.ended = true;
    await refused(() => auth.authenticateOrGrant(bearer(token)));
  });
});

describe("the bearer token", () => {
  /** What the header was read with before: the reading by hand must agree with it on every value. */
  const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;
  const expected = (auth: string) => BEARER.exec(auth)?.[1] ?? "";

  test("agrees with the expression it replaced, on the usual values and the edges", () => {
    const key = `gw_live_${"A".repeat(40)}`;
    const values = [
      `Bearer ${key}`,
      `bearer ${key}`,
      `BEARER\t${key}`,
      `BeArEr  \t ${key} \t `,
      `Bearer ${key}\u00a0`,
      `Bearer\u00a0${key}`,
      `Bearer`,
      `Bearer `,
      `Bearer  \t`,
      `Bearer${key}`,
      `Bearer ${key} extra`,
      `Basic ${key}`,
      `Bearerx ${key}`,
      `Bear ${key}`,
      "",
      "B",
      `Bearer ${key}\u3000`,
      `Bearer ${key}\ufeff`,
      `Bearer a\u2028b`,
      `Bearer \u00e9t\u00e9`,
      `\u0130earer ${key}`,
      `Bearer ${key}\r`,
      `Bearer ${key}\u000b`,
    ];
    for (const v of values) expect(bearerToken(v)).toBe(expected(v));
  });

  test("agrees with it on random values built from the characters that matter", () => {
    const pieces = ["Bearer", "bEaReR", "Beare", " ", "\t", "\u00a0", "\u2009", "\n", "x", "gw_", "9", "\u00e9", "\u3000", "="];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
    for (let n = 0; n < 20000; n++) {
      let v = n % 2 === 0 ? "Bearer" : "";
      const parts = next() % 8;
      for (let i = 0; i < parts; i++) v += pieces[next() % pieces.length];
      expect(bearerToken(v)).toBe(expected(v));
    }
  });

  test("is the key a request presents; without Authorization, x-api-key is", () => {
    const key = `gw_test_${"b".repeat(40)}`;
    expect(presentedKey(new Headers({ authorization: `Bearer ${key}` }))).toBe(key);
    expect(presentedKey(new Headers({ authorization: "Basic dXNlcjpwYXNz" }))).toBe("");
    expect(presentedKey(new Headers({ "x-api-key": key }))).toBe(key);
    expect(presentedKey(new Headers())).toBeNull();
  });
});
