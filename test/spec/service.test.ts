/**
 * SPEC "What the service does" (and "Limits"): on every tier, security scanning is
 * mandatory and MoE routing is available. One organization per tier in one gateway;
 * each calls through its own key.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { initializeOrganization } from "../../src/services/organizations.ts";
import type { RunningMock } from "../support/gateway-process.ts";
import type { InProcessGateway } from "../support/in-process.ts";
import { startStack, stopStack } from "../support/stack.ts";

let gw: InProcessGateway;
let mock: RunningMock;
const keys = new Map<string, string>();
const TIERS = ["starter", "professional", "enterprise"] as const;
const LEAKED_KEY = "ghp_Q7vLm2Rk9XwTz4Hn8Bc3Pd6Yf1Gs5Ja0KeWx";

beforeAll(async () => {
  const stack = await startStack();
  mock = stack.mock;
  gw = stack.gw as InProcessGateway;
  for (const tier of TIERS) {
    const org = await initializeOrganization(gw.runtime.services, { name: `${tier} org`, adminEmail: `admin@${tier}.test`, tier });
    keys.set(tier, org.keyValue);
    const r = await gw.op(org.keyValue, "provider.create", {
      provider: "openai",
      apiKey: `sk-${tier}-0123456789`,
      baseUrl: `${mock.url}/v1`,
      scope: "organization",
    });
    expect([tier, r.status]).toEqual([tier, 200]);
  }
});

afterAll(() => stopStack({ gw, mock }));

const chat = (tier: string, body: object, headers: Record<string, string> = {}) =>
  fetch(`${gw.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${keys.get(tier)}`, "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

test("MoE routing is available on every tier: gateway/auto and x-gw-route both route", async () => {
  for (const tier of TIERS) {
    const auto = await chat(tier, { model: "gateway/auto", messages: [{ role: "user", content: "hi" }] });
    expect([tier, auto.status, auto.headers.get("x-gw-moe-routed")]).toEqual([tier, 200, expect.stringMatching(/^openai\//)]);
    await auto.arrayBuffer();
    const header = await chat(tier, { model: "gpt-4o", messages: [{ role: "user", content: "hi" }] }, { "x-gw-route": "quality" });
    expect([tier, header.status, header.headers.get("x-gw-moe-routed")]).toEqual([tier, 200, expect.stringMatching(/^openai\//)]);
    await header.arrayBuffer();
  }
});

test("security scanning is mandatory on every tier: a leaked credential is refused before any provider sees it", async () => {
  for (const tier of TIERS) {
    const res = await chat(tier, { model: "gpt-4o", messages: [{ role: "user", content: `deploy with ${LEAKED_KEY}` }] });
    expect([tier, res.status]).toEqual([tier, 400]);
    const body = (await res.json()) as any;
    expect([tier, body.error.code]).toEqual([tier, "security_violation"]);
    expect(JSON.stringify(body)).not.toContain(LEAKED_KEY);
  }
  expect(JSON.stringify(await mock.requests())).not.toContain(LEAKED_KEY);
});

test("no tier can turn the scan off: the organization's preferences have no setting that lets a credential through", async () => {
  const tier = "starter";
  const set = await gw.op(keys.get(tier)!, "user.preferences", { set: { security: { secrets: "off" } } });
  expect(set.status).toBe(400);
  const res = await chat(tier, { model: "gpt-4o", messages: [{ role: "user", content: `deploy with ${LEAKED_KEY}` }] });
  expect(res.status).toBe(400);
  await res.arrayBuffer();
});
