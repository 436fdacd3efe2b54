/**
 * A stored Responses conversation is found only by the organization it was given to
 * (the probe: org B continued org A's `previous_response_id` in the sandbox, and an
 * unknown id answered 404 where a foreign one answered 200). A foreign id answers
 * exactly as an unknown one, in the sandbox and through the mock provider, whose
 * stored responses belong to the key that made them, as at OpenAI.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { CLI_ACTOR } from "../../src/domain/identity.ts";
import { initializeOrganization } from "../../src/services/organizations.ts";
import { createServiceAccountWithKey } from "../../src/services/service-accounts.ts";
import { mockPerFile } from "../support/mock-per-file.ts";
import { type Caller, type Harness, startHarness } from "./harness.ts";

const mock = mockPerFile();
let h: Harness;
/** The second organization's admin key (live) and sandbox key. */
let orgB: { admin: Caller; sandbox: Caller };

beforeAll(async () => {
  h = await startHarness();
  const b = await initializeOrganization(h.rt.services, { name: "Other Org", adminEmail: "admin@other.example", tier: "enterprise" });
  const sandboxB = await createServiceAccountWithKey(h.rt.services, CLI_ACTOR, b.organization, b.user.id, {
    serviceAccountName: "sandbox-b",
    role: "admin",
    name: "k",
    keyType: "test",
  });
  const bearer = (value: string, label: string): Caller => ({ headers: { authorization: `Bearer ${value}` }, label });
  orgB = { admin: bearer(b.keyValue, "org B admin key"), sandbox: bearer(sandboxB.keyValue, "org B sandbox key") };
});

afterAll(async () => {
  await h.close();
});

const respond = async (who: Caller, body: Record<string, unknown>) => {
  const res = await h.fetch("/v1/responses", {
    method: "POST",
    headers: { "content-type": "application/json", ...who.headers },
    body: JSON.stringify({ model: "gpt-4o-mini", ...body }),
  });
  return { status: res.status, body: (await res.json()) as any };
};

/** The answer with the id it names taken out, so a foreign id's and an unknown id's can be compared whole. */
const withoutId = (answer: { status: number; body: any }, id: string) => JSON.parse(JSON.stringify(answer).replaceAll(id, "<id>"));

describe("in the sandbox", () => {
  test("org B gets org A's response id answered exactly as an unknown one: 404", async () => {
    const first = await respond(h.sandboxAdminKey, { input: "remember: the word is teal" });
    expect(first.status).toBe(200);
    expect((await respond(h.sandboxAdminKey, { input: "and?", previous_response_id: first.body.id })).status).toBe(200);

    const foreign = await respond(orgB.sandbox, { input: "what was the word?", previous_response_id: first.body.id });
    const unknown = await respond(orgB.sandbox, { input: "what was the word?", previous_response_id: "resp_unknown" });
    expect(foreign.status).toBe(404);
    expect(withoutId(foreign, first.body.id)).toEqual(withoutId(unknown, "resp_unknown"));
  });
});

describe("through a provider (the mock)", () => {
  test("each organization's own key: org B's call cannot continue org A's response", async () => {
    for (const [who, key] of [
      [h.admin, "sk-org-a-1234567890"],
      [orgB.admin, "sk-org-b-1234567890"],
    ] as const) {
      const created = await h.op(who, "provider.create", {
        provider: "openai",
        apiKey: key,
        baseUrl: `${mock.url}/v1`,
        scope: "organization",
      });
      expect(created.status).toBe(200);
    }
    const first = await respond(h.admin, { input: "remember: the word is teal" });
    expect(first.status).toBe(200);
    expect((await respond(h.admin, { input: "and?", previous_response_id: first.body.id })).status).toBe(200);

    const foreign = await respond(orgB.admin, { input: "what was the word?", previous_response_id: first.body.id });
    const unknown = await respond(orgB.admin, { input: "what was the word?", previous_response_id: "resp_unknown" });
    expect(foreign.status).toBe(404);
    expect(withoutId(foreign, first.body.id)).toEqual(withoutId(unknown, "resp_unknown"));
  });
});
