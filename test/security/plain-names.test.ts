/**
 * Names a caller chooses through the operations endpoint are shown in terminals and the
 * dashboard: one with an escape sequence, a line break or a bidirectional override is
 * refused with a 400 naming the field, and nothing is stored (the probe: a service
 * account named `bot\e]0;owned\a` was stored as given and listed back with its ESC).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { initializeOrganization } from "../../src/services/organizations.ts";
import { type Harness, startHarness } from "./harness.ts";

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h.close();
});

const HOSTILE = {
  "an escape sequence": "bot\u001b]0;owned\u0007",
  "a line break": "bot\nFAKE LOG LINE",
  "a C1 control": "bot\u009b2J",
  "a bidi override": "bot\u202Egnp.exe",
  "a bidi isolate": "bot\u2066x\u2069",
};

for (const [kind, name] of Object.entries(HOSTILE)) {
  test(`a service account, key or description with ${kind} is refused and nothing is stored`, async () => {
    const before = await h.op(h.admin, "org.service-accounts.list");
    for (const [field, params] of [
      ["serviceAccountName", { serviceAccountName: name }],
      ["name", { serviceAccountName: "fine", name }],
      ["description", { serviceAccountName: "fine", description: name }],
    ] as const) {
      const r = await h.op(h.admin, "org.service-account.create", params);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe("invalid_request");
      expect(r.body.error).toStartWith(`params.${field} must be`);
      expect(r.body.error).toContain("no control characters, line breaks or bidirectional overrides");
      // The refusal does not echo the hostile text back.
      expect(JSON.stringify(r.body)).not.toContain(name);
    }
    expect((await h.op(h.admin, "org.service-accounts.list")).body).toEqual(before.body);
  });
}

test("a key renamed with an escape sequence keeps its name", async () => {
  const keys = await h.op(h.admin, "org.api-keys.list");
  const keyId = keys.body.data.apiKeys[0].id;
  const r = await h.op(h.admin, "org.api-key.update", { keyId, name: HOSTILE["an escape sequence"] });
  expect(r.status).toBe(400);
  expect(r.body.error).toStartWith("params.name must be");
  const revoke = await h.op(h.admin, "org.api-key.revoke", { keyId, reason: HOSTILE["a bidi override"] });
  expect(revoke.status).toBe(400);
  expect(revoke.body.error).toStartWith("params.reason must be");
  expect((await h.op(h.admin, "org.api-keys.list")).body).toEqual(keys.body);
});

test("a provider configuration's deployment, region or API version with a control character is refused", async () => {
  const base = {
    provider: "azure-openai",
    name: "az",
    apiKey: "k-1234567890",
    baseUrl: "https://example.openai.azure.com",
    scope: "organization",
  };
  for (const [field, extra] of [
    ["deployments.gpt-4o", { deployments: { "gpt-4o": HOSTILE["an escape sequence"] } }],
    ["deployments", { deployments: { [HOSTILE["an escape sequence"]]: "prod" } }],
    ["apiVersion", { apiVersion: HOSTILE["a line break"] }],
    ["region", { region: HOSTILE["a bidi override"] }],
  ] as const) {
    const r = await h.op(h.admin, "provider.create", { ...base, ...extra });
    expect(r.status).toBe(400);
    expect(r.body.error).toStartWith(`params.${field}`);
    // A key the caller chose is named escaped, never replayed.
    expect(r.body.error).not.toContain("\u001b");
  }
  expect((await h.op(h.admin, "provider.list")).body.data.providers).toEqual([]);
});

test("a fallbackModels preference keyed by a model name with an escape sequence is refused", async () => {
  const before = (await h.op(h.admin, "user.preferences", {})).body.data.fallbackModels;
  const r = await h.op(h.admin, "user.preferences", { set: { fallbackModels: { [HOSTILE["an escape sequence"]]: ["gpt-4o-mini"] } } });
  expect(r.status).toBe(400);
  expect(r.body.error).toStartWith("params.set.fallbackModels");
  expect(r.body.error).not.toContain("\u001b");
  expect((await h.op(h.admin, "user.preferences", {})).body.data.fallbackModels).toEqual(before);
});

test("an MCP tool pattern with a control character is refused", async () => {
  const r = await h.op(h.admin, "mcp.access.set", { subject: "x", servers: ["s"], tools: [HOSTILE["an escape sequence"]] });
  expect(r.status).toBe(400);
  expect(r.body.error).toContain("no control characters");
});

test("an invited e-mail address with an escape sequence is refused, quoted escaped", async () => {
  const r = await h.op(h.admin, "org.members.invite", { email: "a\u001b[2J@example.com", role: "member" });
  expect(r.status).toBe(400);
  expect(r.body.error).toContain("\\u001b[2J");
  expect(r.body.error).not.toContain("\u001b");
  const members = await h.op(h.admin, "org.members.list");
  expect(JSON.stringify(members.body)).not.toContain("\u001b");
});

test("plain names in any language are kept as given", async () => {
  const r = await h.op(h.admin, "org.service-account.create", { serviceAccountName: "Überweisungs-Bot 日本 🚀", description: "" });
  expect(r.status).toBe(200);
  expect(r.body.data.serviceAccount.name).toBe("Überweisungs-Bot 日本 🚀");
});

test("an organization name with a control character is refused by the service too", async () => {
  const refused = initializeOrganization(h.rt.services, { name: "Acme\u001b]0;x\u0007", adminEmail: "o@example.com", tier: "enterprise" });
  await expect(refused).rejects.toThrow("plain text");
});

test("an application label with a control character is refused, from the envelope's context or the header", async () => {
  const viaContext = await h.fetch("/api/v1/gateway", {
    method: "POST",
    headers: { "content-type": "application/json", ...h.admin.headers },
    body: JSON.stringify({ operation: "ai.models", params: {}, context: { applicationId: "etl\u001b[2J" } }),
  });
  expect(viaContext.status).toBe(400);
  expect(((await viaContext.json()) as { error: string }).error).toStartWith("context.applicationId must be");
  // A header's bytes past ASCII arrive as Latin-1: 0x9b is the C1 control-sequence introducer.
  const viaHeader = await h.fetch("/v1/chat/completions", {
    method: "POST",
    headers: { "content-type": "application/json", ...h.admin.headers, "x-gw-application": "etl\u009b2J" },
    body: JSON.stringify({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }] }),
  });
  expect(viaHeader.status).toBe(400);
  expect(((await viaHeader.json()) as { error: { message: string } }).error.message).toStartWith("x-gw-application: must be plain text");
  const fine = await h.fetch("/api/v1/gateway", {
    method: "POST",
    headers: { "content-type": "application/json", ...h.admin.headers, "x-gw-application": "etl-nightly" },
    body: JSON.stringify({ operation: "ai.models", params: {}, context: { applicationId: "Rechnungsprüfung" } }),
  });
  expect(fine.status).toBe(200);
});
