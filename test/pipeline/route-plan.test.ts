/**
 * The plan's fallback models from the organization's `fallbackModels` preference. The
 * probe that found the hole: a provider declaring the model `constructor` (or
 * `hasOwnProperty`, `__proto__`) made every call to it a 500, because the preference
 * was read as `fallbackModels[model]` and found Object.prototype's member, which is
 * not a list of models.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type Harness, startHarness } from "../security/harness.ts";
import { mockPerFile } from "../support/mock-per-file.ts";
import { DEFAULT_ORG_PREFERENCES } from "../../src/domain/types.ts";
import type { Identity } from "../../src/domain/identity.ts";
import type { ResolvedTarget } from "../../src/pipeline/authorize.ts";
import { planRoute } from "../../src/pipeline/route-plan.ts";
import { resolverFor } from "../../src/pipeline/sandbox-target.ts";
import { configuredProviderVerdicts } from "../../src/policy/provider-authorization.ts";
import { MemoryOrgSettings } from "../../src/state/org-settings.ts";
import { MemoryProviderDirectory } from "../../src/state/provider-directory.ts";
import { ProviderHealth } from "../../src/state/provider-health.ts";
import type { ProviderLimitCounter } from "../../src/state/provider-limits.ts";
import { openPlain, providerRecord, serviceAccount } from "../policy/fixtures.ts";
import { testCatalog } from "../support/targets.ts";

const mock = mockPerFile();
let h: Harness;
const NAMES = ["constructor", "hasOwnProperty", "__proto__", "toString", "isPrototypeOf"];

beforeAll(async () => {
  // A stalled answer fails at a 1 s deadline: the time a test has to change the providers under a call.
  h = await startHarness({ GW_UPSTREAM_TIMEOUT_S: "1" });
  // The mock loads its tokenizer on its first answer: done here, not inside a test call's 1 s deadline.
  await fetch(`${mock.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: "Bearer sk-warm", "content-type": "application/json" },
    body: JSON.stringify({ model: "warm-up", messages: [{ role: "user", content: "hi" }] }),
  });
});

afterAll(() => h.close());

const chat = (model: string) => h.chat(h.member, model);

test("a declared model named like an Object.prototype member is called, with no fallbacks unless configured", async () => {
  const created = await h.op(h.member, "provider.create", {
    provider: "custom",
    name: "lab",
    apiKey: "sk-lab-key-000",
    baseUrl: `${mock.url}/v1`,
    country: "US",
    models: [...NAMES, "fail-503"],
  });
  expect(created.status).toBe(200);
  for (const model of NAMES) {
    const res = await chat(model);
    expect({ model, status: res.status }).toEqual({ model, status: 200 });
    expect(((await res.json()) as { model: string }).model).toBe(model);
  }
  expect(h.logLines.filter((l) => l.includes('"level":"error"'))).toEqual([]);
});

test("such a name is a key of fallbackModels like any other, and configured fallbacks still run", async () => {
  const fallbackModels = { constructor: ["lab/toString"], "fail-503": ["toString"] };
  const set = await h.op(h.admin, "user.preferences", { set: { fallbackModels } });
  expect(set.status).toBe(200);
  expect(set.body.data.fallbackModels).toEqual(fallbackModels);
  const res = await chat("fail-503");
  expect(res.status).toBe(200);
  expect(res.headers.get("x-gw-attempts")).toBe("2");
  expect(((await res.json()) as { model: string }).model).toBe("toString");
  expect((await chat("constructor")).status).toBe(200);
});

/** A custom configuration on the mock declaring `models`; its id. */
async function addProvider(name: string, models: string[]): Promise<string> {
  const r = await h.op(h.member, "provider.create", {
    provider: "custom",
    name,
    apiKey: `sk-${name}-000000`,
    baseUrl: `${mock.url}/v1`,
    country: "US",
    models,
  });
  expect(r.status).toBe(200);
  return r.body.data.provider.id;
}

test("a routed target whose configuration is deleted while an earlier one is tried is passed over; the next answers", async () => {
  // The family gpt-4o-mini* by cost: the declared (unpriced) stalling model first, then gpt-4o-mini on b-gone, then on c-steady (names break the tie).
  const ids = [await addProvider("a-flaky", ["gpt-4o-mini.fault-body-stalls"]), await addProvider("b-gone", ["gpt-4o-mini"])];
  ids.push(await addProvider("c-steady", ["gpt-4o-mini"]));
  try {
    const seen = (await mock.requests()).length;
    const answer = h.fetch("/v1/chat/completions", {
      method: "POST",
      headers: { ...h.member.headers, "content-type": "application/json", "x-gw-route": "cost" },
      body: JSON.stringify({ model: "gpt-4o-mini*", messages: [{ role: "user", content: "hi" }] }),
    });
    // Deleted while the first target stalls: the plan named b-gone second.
    while ((await mock.requests()).length === seen) await Bun.sleep(10);
    expect((await h.op(h.member, "provider.delete", { id: ids[1] })).status).toBe(200);
    const res = await answer;
    expect(res.status).toBe(200);
    expect(res.headers.get("x-gw-moe-routed")).toBe("c-steady/gpt-4o-mini");
    expect(res.headers.get("x-gw-attempts")).toBe("2");
    // b-gone was never called: the mock saw the stalled call and c-steady's.
    expect((await mock.requests()).slice(seen).map((r) => r.authorization)).toEqual([
      "Bearer sk-a-flaky-000000",
      "Bearer sk-c-steady-000000",
    ]);
  } finally {
    for (const id of [ids[0], ids[2]]) await h.op(h.member, "provider.delete", { id });
  }
});

test("a provider refusing its configuration's key (401, 403) moves on to the next target, uncharged; only the 401 counts against its health", async () => {
  const ids = [await addProvider("revoked", ["fail-401", "fail-403"]), await addProvider("steady", ["gpt-4o-mini"])];
  try {
    // A 401 counts against the configuration's health; the 403s (which a caller earns by naming a model the key may not use) do not.
    for (const failing of ["revoked/fail-401", "revoked/fail-403", "revoked/fail-403", "revoked/fail-403"]) {
      const res = await h.fetch("/v1/chat/completions", {
        method: "POST",
        headers: { ...h.member.headers, "content-type": "application/json", "x-gw-fallback-models": "steady/gpt-4o-mini" },
        body: JSON.stringify({ model: failing, messages: [{ role: "user", content: "hi" }] }),
      });
      expect({ failing, status: res.status }).toEqual({ failing, status: 200 });
      expect(res.headers.get("x-gw-attempts")).toBe("2");
      expect(res.headers.get("x-gw-provider")).toBe("steady/gpt-4o-mini");
      const requestId = res.headers.get("x-request-id");
      await h.rt.usage.flush();
      const rows = (await h.rt.store.listUsageEvents(h.org.organization.id)).filter((r) => r.requestId === requestId);
      expect(rows.map((r) => [r.model, r.status === 200, r.costMicros > 0]).sort()).toEqual([
        [failing.slice("revoked/".length), false, false],
        ["gpt-4o-mini", true, true],
      ]);
    }
    const health = await h.op(h.member, "ai.health", {});
    const revoked = health.body.data.providers.find((p: { id: string }) => p.id === ids[0]);
    expect(revoked).toMatchObject({ state: "closed", consecutiveFailures: 1 });
  } finally {
    for (const id of ids) await h.op(h.member, "provider.delete", { id });
  }
});

test("x-gw-fallback-models naming a family or gateway/auto is a 400 naming it, not a literal model sent to a vendor", async () => {
  const id = await addProvider("lab2", ["fail-503"]);
  try {
    for (const routed of ["gpt-4o*", "gateway/auto"]) {
      const res = await h.fetch("/v1/chat/completions", {
        method: "POST",
        headers: { ...h.member.headers, "content-type": "application/json", "x-gw-fallback-models": `gpt-4o-mini,${routed}` },
        body: JSON.stringify({ model: "lab2/fail-503", messages: [{ role: "user", content: "hi" }] }),
      });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: { param: string; message: string } };
      expect(body.error.param).toBe("x-gw-fallback-models");
      expect(body.error.message).toContain(routed);
    }
  } finally {
    await h.op(h.member, "provider.delete", { id });
  }
});

test("a sandbox key's routed fallback targets resolve to simulated targets, not passed over for having no configuration", async () => {
  const records = [
    providerRecord({ id: "p-a", name: "alpha", provider: "custom", country: "US", baseUrl: `${mock.url}/v1`, models: ["m-one"] }),
    providerRecord({ id: "p-b", name: "beta", provider: "custom", country: "US", baseUrl: `${mock.url}/v1`, models: ["m-two"] }),
  ];
  const directory = new MemoryProviderDirectory(
    async () => records,
    openPlain,
    (kind, rec) => configuredProviderVerdicts(testCatalog, kind, rec),
  );
  const deps = {
    resolve: { catalog: testCatalog, directory },
    settings: new MemoryOrgSettings(async () => DEFAULT_ORG_PREFERENCES),
    health: new ProviderHealth(),
    limits: {} as ProviderLimitCounter,
  };
  const live = serviceAccount(null) as Extract<Identity, { kind: "serviceAccount" }>;
  const sandbox: Identity = { ...live, key: { ...live.key, keyType: "test" } };
  const needs = () => ({ tools: false, vision: false, json: false, promptTokens: 10, maxTokens: null });
  const plan = await planRoute(deps, resolverFor(sandbox), sandbox, new Headers({ "x-gw-route": "cost" }), {
    model: "gateway/auto",
    needs,
  });
  expect(plan.targets).toHaveLength(2);
  const later = await (plan.targets[1] as () => Promise<ResolvedTarget>)();
  expect(later).toMatchObject({ simulated: true, configId: null, providerName: "beta" });
});
