/**
 * Provider ownership, every provider operation for every kind of caller. The rule
 * (docs/security.md): a provider belongs to the organization (admins manage it) or to
 * one person (that person and admins manage it); a service account never owns one and
 * never acts as its creator; a member's personal provider serves only that member's
 * calls. The probe that found the hole: a member-role key re-pointed its creator's
 * personal provider at an address of its own, and the next call delivered the
 * creator's provider key there.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startMockProvider } from "../../src/mock-provider/server.ts";
import { type Caller, type Harness, startHarness } from "./harness.ts";

let h: Harness;
let mock: ReturnType<typeof startMockProvider>;
let mockUrl: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  h = await startHarness();
  mock = startMockProvider({ host: "127.0.0.1", port: 0, latencyMs: 0 });
  mockUrl = `http://127.0.0.1:${mock.port}`;
  const make = async (who: Caller, name: string, apiKey: string, scope: "user" | "organization") => {
    const r = await h.op(who, "provider.create", {
      provider: "custom",
      name,
      apiKey,
      baseUrl: `${mockUrl}/v1`,
      country: "US",
      models: [`${name}-model`, "shared-model"],
      scope,
    });
    expect(r.status).toBe(200);
    ids[name] = r.body.data.provider.id;
  };
  await make(h.admin, "org-prov", "sk-organization-key-000", "organization");
  await make(h.adminSession, "admin-own", "sk-admin-personal-key-000", "user");
  await make(h.member, "member-own", "sk-member-personal-key-000", "user");
});

afterAll(async () => {
  mock.stop(true);
  await h.close();
});

/** The provider key the mock saw on the last call `who` made for `model`, or the gateway's error code. */
async function keyReaching(who: Caller, model: string): Promise<string> {
  const res = await h.chat(who, model);
  const body = (await res.json()) as any;
  if (res.status !== 200) return body.error.code;
  const seen = (await (await fetch(`${mockUrl}/_mock/requests`)).json()) as { authorization: string | null }[];
  return (seen.at(-1)?.authorization ?? "").replace(/^Bearer /, "");
}

describe("provider.create", () => {
  const cases: [string, () => Caller, "user" | "organization" | undefined, number][] = [
    ["admin key, organization", () => h.admin, "organization", 200],
    ["admin key, default scope is the organization's", () => h.admin, undefined, 200],
    ["admin key, personal: a service account owns nothing", () => h.admin, "user", 403],
    ["admin session, personal", () => h.adminSession, "user", 200],
    ["admin session, organization", () => h.adminSession, "organization", 200],
    ["member session, personal", () => h.member, "user", 200],
    ["member session, organization", () => h.member, "organization", 403],
    ["member key, default", () => h.memberKey, undefined, 403],
    ["member key, personal", () => h.memberKey, "user", 403],
    ["sandbox admin key", () => h.sandboxAdminKey, "organization", 403],
  ];
  let n = 0;
  for (const [name, who, scope, status] of cases) {
    test(name, async () => {
      const r = await h.op(who(), "provider.create", {
        provider: "groq",
        apiKey: "gsk_create_case_0000",
        name: `case-${n++}`,
        ...(scope ? { scope } : {}),
      });
      expect(r.status).toBe(status);
      if (status === 200) expect(r.body.data.provider.scope).toBe(scope ?? (who().headers.cookie ? "user" : "organization"));
      // Every refusal is audited, the registry's and the ownership rules' alike.
      if (status === 403)
        expect((await h.rt.store.listAudit(h.org.organization.id, { limit: 1, before: null })).entries[0]?.action).toBe("access.denied");
    });
  }
});

describe("provider.update and provider.delete", () => {
  // [caller, provider, expected status]: 404 where the caller may not even see it.
  const cases: [string, () => Caller, string, number][] = [
    ["member key cannot re-point its creator's personal provider", () => h.memberKey, "admin-own", 404],
    ["member key cannot change the organization's provider", () => h.memberKey, "org-prov", 403],
    ["member key cannot change a member's personal provider", () => h.memberKey, "member-own", 404],
    ["member session cannot change the admin's personal provider", () => h.member, "admin-own", 404],
    ["member session cannot change the organization's provider", () => h.member, "org-prov", 403],
    ["sandbox admin key administers nothing", () => h.sandboxAdminKey, "org-prov", 403],
  ];
  for (const [name, who, target, status] of cases) {
    test(name, async () => {
      expect((await h.op(who(), "provider.update", { id: ids[target], baseUrl: "http://attacker.example/v1" })).status).toBe(status);
      expect((await h.op(who(), "provider.delete", { id: ids[target] })).status).toBe(status);
    });
  }

  test("after every refused attempt, the calls still reach the configured address with the right key", async () => {
    expect(await keyReaching(h.admin, "admin-own/admin-own-model")).toBe("sk-admin-personal-key-000");
    expect(await keyReaching(h.admin, "org-prov/org-prov-model")).toBe("sk-organization-key-000");
  });

  test("a member changes their own provider; an admin changes anyone's; re-scoping to the organization (sharing) is an admin's", async () => {
    expect((await h.op(h.member, "provider.update", { id: ids["member-own"], limits: { requestsPerMinute: 5 } })).status).toBe(200);
    expect((await h.op(h.member, "provider.update", { id: ids["member-own"], scope: "organization" })).status).toBe(403);
    expect((await h.op(h.adminSession, "provider.update", { id: ids["member-own"], limits: { requestsPerMinute: 6 } })).status).toBe(200);
    expect((await h.op(h.admin, "provider.update", { id: ids["admin-own"], limits: { requestsPerMinute: 7 } })).status).toBe(200);
    expect((await h.op(h.admin, "provider.update", { id: ids["org-prov"], scope: "user" })).status).toBe(403);
  });
});

describe("provider.list", () => {
  const names = async (who: Caller) => ((await h.op(who, "provider.list")).body.data.providers as { name: string }[]).map((p) => p.name);

  test("a member key sees the organization's providers only", async () => {
    const seen = await names(h.memberKey);
    expect(seen).toContain("org-prov");
    expect(seen).not.toContain("admin-own");
    expect(seen).not.toContain("member-own");
  });

  test("a member sees the organization's and their own; an admin sees all", async () => {
    const member = await names(h.member);
    expect(member).toContain("member-own");
    expect(member).not.toContain("admin-own");
    const admin = await names(h.admin);
    for (const n of ["org-prov", "admin-own", "member-own"]) expect(admin).toContain(n);
  });
});

describe("key resolution: a member's personal provider serves only that member", () => {
  test("another caller's call for a model only the member's provider declares finds no provider", async () => {
    expect(await keyReaching(h.member, "member-own-model")).toBe("sk-member-personal-key-000");
    expect(await keyReaching(h.admin, "member-own-model")).toBe("model_not_found");
    expect(await keyReaching(h.memberKey, "member-own-model")).toBe("model_not_found");
    expect(await keyReaching(h.adminSession, "member-own/member-own-model")).toBe("model_not_found");
  });

  test("a member's provider cannot shadow a model others use: they keep the organization's", async () => {
    expect(await keyReaching(h.admin, "shared-model")).toBe("sk-organization-key-000");
    expect(await keyReaching(h.memberKey, "shared-model")).toBe("sk-organization-key-000");
  });

  test("a service account reaches the personal providers of the person who created it", async () => {
    expect(await keyReaching(h.memberKey, "admin-own/admin-own-model")).toBe("sk-admin-personal-key-000");
  });
});
