/** Which stored provider key answers a call: the order for service accounts and for users, and per-request keys. */
import { describe, expect, test } from "bun:test";
import type { ProviderConfigRecord } from "../../src/domain/types.ts";
import { resolveTarget } from "../../src/pipeline/resolve-provider.ts";
import { usableProviders } from "../../src/services/provider-access.ts";
import { configuredProviderVerdicts } from "../../src/policy/provider-authorization.ts";
import { Catalog } from "../../src/providers/catalog/catalog.ts";
import { MemoryProviderDirectory } from "../../src/state/provider-directory.ts";
import { openPlain, providerRecord, serviceAccount, user } from "../policy/fixtures.ts";

const catalog = Catalog.builtIn();

/** A directory over fixed records, returned in the order given (the directory must not depend on it). */
function deps(records: ProviderConfigRecord[]) {
  return {
    catalog,
    directory: new MemoryProviderDirectory(
      async () => [...records],
      openPlain,
      (kind, rec) => configuredProviderVerdicts(catalog, kind, rec),
    ),
  };
}

/** The target, or what resolving refused with (thrown at once when the providers are in memory, else rejected). */
const settled = async (resolving: () => unknown): Promise<any> => {
  try {
    return await resolving();
  } catch (err) {
    return err;
  }
};

const keyOf = async (d: ReturnType<typeof deps>, identity: Parameters<typeof resolveTarget>[1], headers = new Headers()) => {
  const t = await resolveTarget(d, identity, "gpt-4o", headers);
  return t.credentials.type === "api-key" ? t.credentials.apiKey : null;
};

// Four openai keys: the organization's, the creator's (alice), and two other members' (never a service account's).
const org = providerRecord({ id: "p-org", apiKey: "sk-org", createdAt: 4_000 });
const alice = providerRecord({ id: "p-alice", apiKey: "sk-alice", ownerUserId: "alice", createdAt: 3_000 });
const bob = providerRecord({ id: "p-bob", apiKey: "sk-bob", ownerUserId: "bob", createdAt: 1_000 });
const carol = providerRecord({ id: "p-carol", apiKey: "sk-carol", ownerUserId: "carol", createdAt: 2_000 });

describe("a service account's key", () => {
  const bot = serviceAccount("alice");

  test("the organization's first, then its creator's, then other members' at the vendor's address, oldest first", async () => {
    expect(await keyOf(deps([carol, bob, alice, org]), bot)).toBe("sk-org");
    expect(await keyOf(deps([carol, bob, alice]), bot)).toBe("sk-alice");
    expect(await keyOf(deps([carol, bob]), bot)).toBe("sk-bob");
  });

  test("another member's provider at an address of their choosing is never used (docs/security.md)", async () => {
    const proxied = providerRecord({
      id: "p-proxied",
      apiKey: "sk-proxied",
      ownerUserId: "bob",
      baseUrl: "https://llm.bob.example/v1",
      createdAt: 500,
    });
    await expect(keyOf(deps([proxied]), bot)).rejects.toMatchObject({ code: "provider_not_configured" });
    expect(await keyOf(deps([proxied]), serviceAccount("bob"))).toBe("sk-proxied");
  });

  test("the whole order, as usableProviders gives it", async () => {
    const d = deps([carol, org, bob, alice]);
    const all = await d.directory.get("org_t");
    expect(usableProviders(all, bot).map((p) => p.record.id)).toEqual(["p-org", "p-alice", "p-bob", "p-carol"]);
    // A service account with no creating member: the organization's, then the members' by age.
    expect(usableProviders(all, serviceAccount(null)).map((p) => p.record.id)).toEqual(["p-org", "p-bob", "p-carol", "p-alice"]);
  });
});

describe("a user's key", () => {
  test("their own first, then the organization's; never another member's", async () => {
    expect(await keyOf(deps([carol, bob, org]), user("carol"))).toBe("sk-carol");
    expect(await keyOf(deps([carol, bob, org]), user("dave"))).toBe("sk-org");
    const none = await settled(() => resolveTarget(deps([carol, bob]), user("dave"), "gpt-4o", new Headers()));
    expect(none).toMatchObject({ status: 400, code: "provider_not_configured", details: { provider: "openai", model: "gpt-4o" } });
  });
});

describe("a per-request key", () => {
  test("replaces the stored key for that call, at the kind's default address, with nothing precomputed", async () => {
    const headers = new Headers({ "x-gw-provider-key": " sk-once ", "x-gw-provider": "openai" });
    const t = await resolveTarget(deps([org]), serviceAccount("alice"), "gpt-4o", headers);
    expect(t).toMatchObject({
      configId: null,
      providerName: "openai",
      baseUrl: catalog.kind("openai").defaultBaseUrl,
      credentials: { type: "api-key", apiKey: "sk-once" },
    });
    expect(t.authorization).toBeUndefined();
    expect(await keyOf(deps([org]), serviceAccount("alice"))).toBe("sk-org");
  });

  test("goes to the address of the caller's configured provider of that kind (a proxy), else the vendor's", async () => {
    const proxied = providerRecord({ id: "p-proxy", apiKey: "sk-org", baseUrl: "https://llm-proxy.internal.example/v1", createdAt: 4_000 });
    const headers = new Headers({ "x-gw-provider-key": "sk-once", "x-gw-provider": "openai" });
    const t = await resolveTarget(deps([proxied]), serviceAccount("alice"), "gpt-4o", headers);
    expect(t).toMatchObject({
      configId: null,
      baseUrl: "https://llm-proxy.internal.example/v1",
      credentials: { type: "api-key", apiKey: "sk-once" },
    });
    const alone = await resolveTarget(deps([]), serviceAccount("alice"), "gpt-4o", headers);
    expect(alone.baseUrl).toBe(catalog.kind("openai").defaultBaseUrl!);
    // Another member's configuration is never used, not even for its address.
    const bobs = providerRecord({ id: "p-bob2", apiKey: "sk-bob", ownerUserId: "bob", baseUrl: "https://bob.example/v1" });
    expect((await resolveTarget(deps([bobs]), serviceAccount("alice"), "gpt-4o", headers)).baseUrl).toBe(
      catalog.kind("openai").defaultBaseUrl!,
    );
  });
});

describe("the cloud platform's ids", () => {
  const platform = providerRecord({ id: "p-bedrock", provider: "bedrock", apiKey: "bedrock-api-key", createdAt: 1_000, format: "bedrock" });

  test("anthropic.* and its inference-profile spellings go to the platform; look-alikes do not", async () => {
    const d = deps([platform, org]);
    for (const id of [
      "anthropic.claude-haiku-4-5-20251001-v1:0",
      "us.anthropic.claude-haiku-4-5-20251001-v1:0",
      "global.anthropic.claude-sonnet-4-5-20250929-v1:0",
      "apac.anthropic.claude-haiku-4-5-20251001-v1:0",
      "us-gov.anthropic.claude-haiku-4-5-20251001-v1:0",
    ]) {
      expect([id, (await resolveTarget(d, serviceAccount("alice"), id, new Headers())).kind]).toEqual([id, "bedrock"]);
    }
    for (const id of ["us-east-1.anthropic.claude-x", "meta.llama3-70b-instruct-v1:0"]) {
      const t = await settled(() => resolveTarget(d, serviceAccount("alice"), id, new Headers()));
      expect([id, t.kind ?? t.code]).not.toEqual([id, "bedrock"]);
    }
  });
});

describe("answered at once", () => {
  test("with the organization's providers in memory the target, and a refusal, come at once; the first call waits for the load", async () => {
    const d = deps([org]);
    const first = resolveTarget(d, serviceAccount("alice"), "gpt-4o", new Headers());
    expect(first).toBeInstanceOf(Promise);
    await first;
    const again = resolveTarget(d, serviceAccount("alice"), "gpt-4o", new Headers());
    expect(again).not.toBeInstanceOf(Promise);
    expect((again as Awaited<typeof first>).configId).toBe("p-org");
    expect(() => resolveTarget(d, serviceAccount("alice"), "no-such-model-xyz", new Headers())).toThrow(
      expect.objectContaining({ code: "model_not_found" }),
    );
  });
});

describe("a request that names a side (context.scope)", () => {
  test("organization: only the organization's key, for a user and a service account alike", async () => {
    expect(await keyOf(deps([alice, org]), { ...user("alice"), providerSide: "organization" })).toBe("sk-org");
    expect(await keyOf(deps([alice, org]), { ...serviceAccount("alice"), providerSide: "organization" })).toBe("sk-org");
    const none = await settled(() => resolveTarget(deps([alice, bob]), { ...user("alice"), providerSide: "organization" }, "gpt-4o", new Headers()));
    expect(none.code).toBe("provider_not_configured");
    expect(none.message).toContain('context.scope is "organization"');
  });

  test("user: only the caller's own key, never the organization's", async () => {
    expect(await keyOf(deps([org, alice]), { ...user("alice"), providerSide: "user" })).toBe("sk-alice");
    const none = await settled(() => resolveTarget(deps([org, bob]), { ...user("alice"), providerSide: "user" }, "gpt-4o", new Headers()));
    expect(none.code).toBe("provider_not_configured");
    expect(none.message).toContain('context.scope is "user"');
  });
});
