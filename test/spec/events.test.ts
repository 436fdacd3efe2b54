/**
 * SPEC "Events" and "Organization records": every admin action writes an audit entry
 * carrying the actor, the IP address, the user agent and a generated entry id. Each
 * operation an admin alone may run is run here, successfully, and its entry read back
 * through `org.audit-log.list`; an admin operation added later without a case fails here.
 */
import { expect, test } from "bun:test";
import { CLI_ACTOR } from "../../src/domain/identity.ts";
import { accessCases } from "../../src/ops/access.ts";
import { createOperationRegistry } from "../../src/ops/index.ts";
import { addMember } from "../../src/services/organizations.ts";
import { stackPerFile } from "../support/stack.ts";

const AGENT = "spec-audit-check/1.0";
const op = (operation: string, params: object) => stack.gw.op(stack.org.apiKey, operation, params, { "user-agent": AGENT });

async function newMember(email: string): Promise<string> {
  const user = await addMember(stack.gw.runtime.services, CLI_ACTOR, stack.org.orgId, { email, role: "member" });
  return user.id;
}

async function newKey(name: string): Promise<{ serviceAccountId: string; keyId: string }> {
  const r = await op("org.service-account.create", { serviceAccountName: name });
  expect(r.status).toBe(200);
  return { serviceAccountId: r.body.data.serviceAccount.id, keyId: r.body.data.apiKey.id };
}

/** Valid params for each admin action, made fresh (a removed member cannot be removed twice). */
const cases: Record<string, () => Promise<object>> = {
  "org.service-account.create": async () => ({
    serviceAccountName: "audited",
    name: "k",
    description: "every param the specification names",
    keyType: "live",
    proxyMode: "security_enhanced",
  }),
  "org.api-key.revoke": async () => ({ keyId: (await newKey("to-revoke")).keyId, reason: "spec" }),
  "org.api-key.update": async () => ({ keyId: (await newKey("to-update")).keyId, name: "renamed" }),
  "org.api-key.rotate": async () => ({ keyId: (await newKey("to-rotate")).keyId }),
  "org.service-account.delete": async () => ({ serviceAccountId: (await newKey("to-delete")).serviceAccountId }),
  "org.members.invite": async () => ({ email: "invited@example.com", role: "member" }),
  "org.invitation.cancel": async () => {
    expect((await op("org.members.invite", { email: "withdrawn@example.com" })).status).toBe(200);
    return { email: "withdrawn@example.com" };
  },
  "org.member.update-role": async () => ({ userId: await newMember("promoted@example.com"), role: "admin" }),
  "org.member.remove": async () => ({ userId: await newMember("leaving@example.com") }),
  "org.webhook-secret.rotate": async () => ({}),
  "mcp.server.create": async () => ({ name: "audited", url: `${stack.mock.url}/mcp` }),
  "mcp.server.update": async () => {
    const created = await op("mcp.server.create", { name: "to-update", url: `${stack.mock.url}/mcp` });
    expect(created.status).toBe(200);
    return { id: created.body.data.server.id, name: "updated" };
  },
  "mcp.server.delete": async () => {
    const created = await op("mcp.server.create", { name: "to-delete", url: `${stack.mock.url}/mcp` });
    expect(created.status).toBe(200);
    return { id: created.body.data.server.id };
  },
  "mcp.access.set": async () => ({ subject: (await newKey("limited")).keyId, servers: ["audited"], tools: ["*"] }),
  "provider.create": async () => ({
    provider: "openai",
    apiKey: "sk-spec-audit-0123456789",
    baseUrl: `${stack.mock.url}/v1`,
    scope: "organization",
  }),
  "user.sessions.end-all": async () => ({ userId: await newMember("signed-out@example.com") }),
};

/** Every operation that is an admin's alone, always or with some params (as its access declaration says). */
function adminActions(): string[] {
  const registry = createOperationRegistry();
  return registry.ids().filter((id) => accessCases(registry.declaredAccess(id)!).some((c) => c.access === "admin"));
}

const stack = stackPerFile();

test("each admin action writes one audit entry with actor, IP address, user agent and entry id", async () => {
  expect(adminActions()).toEqual(Object.keys(cases).sort());
  for (const id of Object.keys(cases)) {
    const params = await cases[id]!();
    const before = (await op("org.audit-log.list", { limit: 1 })).body.data.entries[0].id;
    const r = await op(id, params);
    expect([id, r.status]).toEqual([id, 200]);
    const entries = (await op("org.audit-log.list", { limit: 20 })).body.data.entries as any[];
    // The entries above the newest one before the action are the action's own.
    const newest = entries.findIndex((e) => e.id === before);
    expect([id, newest > 0]).toEqual([id, true]);
    const written = entries.slice(0, newest);
    for (const entry of written) {
      expect([id, entry]).toEqual([
        id,
        expect.objectContaining({
          id: expect.stringMatching(/^aud_/),
          actor: `sa:${stack.org.serviceAccountId}`,
          ip: "127.0.0.1",
          userAgent: AGENT,
          action: expect.any(String),
        }),
      ]);
    }
  }
});

test("admin actions inside operations any member may run are audited too: organization settings, organization providers", async () => {
  const created = await op("provider.create", { provider: "mistral", apiKey: "sk-spec-mistral-0123456789", scope: "organization" });
  expect(created.status).toBe(200);
  const id = created.body.data.provider.id;
  for (const [operation, params] of [
    ["user.preferences", { set: { monthlyBudgetCents: 50_000 } }],
    ["provider.update", { id, name: "shared-mistral" }],
    ["provider.delete", { id }],
  ] as const) {
    const before = (await op("org.audit-log.list", { limit: 1 })).body.data.entries[0].id;
    expect([operation, (await op(operation, params)).status]).toEqual([operation, 200]);
    const [entry] = (await op("org.audit-log.list", { limit: 1 })).body.data.entries;
    expect([operation, entry.id === before]).toEqual([operation, false]);
    expect([operation, entry]).toEqual([
      operation,
      expect.objectContaining({
        id: expect.stringMatching(/^aud_/),
        actor: `sa:${stack.org.serviceAccountId}`,
        ip: "127.0.0.1",
        userAgent: AGENT,
      }),
    ]);
  }
});
