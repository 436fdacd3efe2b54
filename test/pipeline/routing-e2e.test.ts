/**
 * `model: "gateway/auto"` and fallback end to end: the official client against two
 * mock providers registered as different custom providers. Each strategy picks the
 * model the catalog's figures say it should; a provider answering 500 / 429 / too
 * slowly is skipped for the next before any byte reached the client; a stream broken
 * after its first chunk is not retried; only the answering call is charged.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import type { RunningMock } from "../support/gateway-process.ts";
import { type InProcessGateway, startMockInProcess } from "../support/in-process.ts";
import { startStack, stopStack } from "../support/stack.ts";
import { withStore } from "../support/store-access.ts";
import type { InitResult } from "../support/gateway-process.ts";

let gw: InProcessGateway;
let mockA: RunningMock;
let mockB: RunningMock;
let org: InitResult;
let client: OpenAI;

beforeAll(async () => {
  // Strict durability: a call's usage event is stored before its answer, so the tests read it at once.
  const stack = await startStack({ env: { GW_DURABILITY: "strict", GW_UPSTREAM_TIMEOUT_S: "1" } });
  gw = stack.gw as InProcessGateway;
  mockA = stack.mock;
  org = stack.org;
  mockB = startMockInProcess();
  client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: org.apiKey, maxRetries: 0 });
  // The mocks load their tokenizer on their first answer: done here, not inside the 1 s upstream timeout of a test's call.
  for (const m of [mockA, mockB]) {
    await fetch(`${m.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: "Bearer sk-warm", "content-type": "application/json" },
      body: JSON.stringify({ model: "warm-up", messages: [{ role: "user", content: "hi" }] }),
    });
  }
});

afterAll(async () => {
  await mockB.stop();
  await stopStack({ gw, mock: mockA });
});

/** A custom provider on one of the mocks, declaring its models; returns its id. */
async function addProvider(name: string, mock: RunningMock, models: string[], extra: Record<string, unknown> = {}): Promise<string> {
  const r = await gw.op(org.apiKey, "provider.create", {
    provider: "custom",
    name,
    apiKey: `sk-${name}-0000000000`,
    baseUrl: `${mock.url}/v1`,
    country: "US",
    models,
    scope: "organization",
    ...extra,
  });
  expect(r.status).toBe(200);
  return r.body.data.provider.id;
}

async function removeProviders(ids: string[]): Promise<void> {
  for (const id of ids) expect((await gw.op(org.apiKey, "provider.delete", { id })).status).toBe(200);
}

/** About 200 tokens: enough that input prices separate models whose output prices are equal. */
const LONG = "Summarize the following notes about the quarterly planning meeting. ".repeat(20);

async function routed(headers: Record<string, string>, body: Partial<OpenAI.ChatCompletionCreateParamsNonStreaming> = {}) {
  const { data, response } = await client.chat.completions
    // The limit under the name OpenAI's reasoning models (gpt-5 among the routed ones) take: the custom providers pass it as written.
    .create({ model: "gateway/auto", messages: [{ role: "user", content: LONG }], max_completion_tokens: 100, ...body }, { headers })
    .withResponse();
  return {
    data,
    routed: response.headers.get("x-gw-moe-routed"),
    attempts: response.headers.get("x-gw-attempts"),
    requestId: response.headers.get("x-request-id"),
  };
}

describe("strategies", () => {
  let ids: string[] = [];
  beforeAll(async () => {
    // alpha: the fastest (gpt-4.1-nano, 400 ms prior); beta: the cheapest (gpt-5-nano) and the best (gpt-5).
    ids = [await addProvider("alpha", mockA, ["gpt-4.1-nano", "gpt-4o-mini"]), await addProvider("beta", mockB, ["gpt-5-nano", "gpt-5"])];
  });
  afterAll(() => removeProviders(ids));

  test("cost, speed and quality each pick their axis's best, and the answer comes from it", async () => {
    const cost = await routed({ "x-gw-route": "cost" });
    expect(cost.routed).toBe("beta/gpt-5-nano");
    expect(cost.data.model).toBe("gpt-5-nano");
    expect(cost.attempts).toBe("1");
    expect((await routed({ "x-gw-route": "speed" })).routed).toBe("alpha/gpt-4.1-nano");
    expect((await routed({ "x-gw-route": "quality" })).routed).toBe("beta/gpt-5");
    expect((await mockB.requests()).at(-1)?.body).toMatchObject({ model: "gpt-5" });
  });

  test("without a header the organization's defaultRouteStrategy applies", async () => {
    expect((await gw.op(org.apiKey, "user.preferences", { set: { defaultRouteStrategy: "quality" } })).status).toBe(200);
    try {
      expect((await routed({})).routed).toBe("beta/gpt-5");
    } finally {
      await gw.op(org.apiKey, "user.preferences", { set: { defaultRouteStrategy: "balanced" } });
    }
  });

  test("a stream is routed too and carries the header", async () => {
    const { data: stream, response } = await client.chat.completions
      .create(
        { model: "gateway/auto", stream: true, messages: [{ role: "user", content: "hi" }] },
        { headers: { "x-gw-route": "quality" } },
      )
      .withResponse();
    expect(response.headers.get("x-gw-moe-routed")).toBe("beta/gpt-5");
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? "";
    expect(text.length).toBeGreaterThan(0);
  });

  test("bad strategy and bad fallback switch are 400s; needs no candidate can meet is moe_routing_unavailable naming why", async () => {
    const bad = await fetch(`${gw.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${org.apiKey}`, "content-type": "application/json", "x-gw-route": "cheapest" },
      body: JSON.stringify({ model: "gateway/auto", messages: [{ role: "user", content: "hi" }] }),
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).error.param).toBe("x-gw-route");
    const err = await client.chat.completions
      .create({ model: "gateway/auto", messages: [{ role: "user", content: "hi" }], max_tokens: 10_000_000 })
      .catch((e) => e);
    expect(err.status).toBe(400);
    expect(err.code).toBe("moe_routing_unavailable");
    expect(err.message).toContain("max_tokens above its output limit");
    // No provider at all for the messages endpoint: every configuration here speaks chat completions.
    const none = await fetch(`${gw.url}/v1/messages`, {
      method: "POST",
      headers: { "x-api-key": org.apiKey, "anthropic-version": "2023-06-01", "content-type": "application/json" },
      body: JSON.stringify({ model: "gateway/auto", max_tokens: 10, messages: [{ role: "user", content: "hi" }] }),
    });
    expect(none.status).toBe(400);
    expect(((await none.json()) as any).error).toMatchObject({ type: "invalid_request_error" });
  });

  test("a family (a trailing *) is routed among its models; a concrete id without x-gw-route is served as named", async () => {
    const family = async (model: string, strategy: string) => {
      const { data, response } = await client.chat.completions
        .create({ model, messages: [{ role: "user", content: LONG }], max_completion_tokens: 100 }, { headers: { "x-gw-route": strategy } })
        .withResponse();
      return { model: data.model, routed: response.headers.get("x-gw-moe-routed") };
    };
    // Among every model quality picks beta/gpt-5; within gpt-4* it is gpt-4o-mini (74 against gpt-4.1-nano's 70).
    expect(await family("gpt-4*", "quality")).toEqual({ model: "gpt-4o-mini", routed: "alpha/gpt-4o-mini" });
    expect(await family("gpt-4*", "speed")).toEqual({ model: "gpt-4.1-nano", routed: "alpha/gpt-4.1-nano" });
    expect(await family("gpt-5*", "cost")).toEqual({ model: "gpt-5-nano", routed: "beta/gpt-5-nano" });
    // Named without the header, the model is the model, even under a default strategy: the cheapest would be gpt-5-nano, yet gpt-4o-mini answers, not routed.
    expect((await gw.op(org.apiKey, "user.preferences", { set: { defaultRouteStrategy: "cost" } })).status).toBe(200);
    try {
      const before = (await mockA.requests()).length;
      const { data, response } = await client.chat.completions
        .create({ model: "alpha/gpt-4o-mini", messages: [{ role: "user", content: LONG }], max_tokens: 100 })
        .withResponse();
      expect([data.model, response.headers.get("x-gw-moe-routed")]).toEqual(["gpt-4o-mini", null]);
      expect((await mockA.requests()).slice(before).map((r) => (r.body as { model: string }).model)).toEqual(["gpt-4o-mini"]);
    } finally {
      await gw.op(org.apiKey, "user.preferences", { set: { defaultRouteStrategy: "balanced" } });
    }
    // A family none of the caller's providers offers.
    const none = await client.chat.completions
      .create({ model: "claude-sonnet*", messages: [{ role: "user", content: "hi" }] })
      .catch((e) => e);
    expect(none.status).toBe(400);
    expect(none.code).toBe("moe_routing_unavailable");
    expect(none.message).toContain("claude-sonnet*");
  });

  test("a model a configuration declares under a name ending with * is that model, not a family", async () => {
    const id = await addProvider("starry", mockA, ["house*"]);
    try {
      const { data, response } = await client.chat.completions
        .create({ model: "house*", messages: [{ role: "user", content: "hi" }] })
        .withResponse();
      expect(response.headers.get("x-gw-moe-routed")).toBeNull();
      expect(data.model).toBe("house*");
      expect((await mockA.requests()).at(-1)?.body).toMatchObject({ model: "house*" });
    } finally {
      await removeProviders([id]);
    }
  });

  test("a sandbox key routes among the same candidates and is answered by the simulator", async () => {
    const r = await gw.op(org.apiKey, "org.service-account.create", { serviceAccountName: "routing-sandbox", keyType: "test" });
    const sandbox = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: r.body.data.apiKey.key, maxRetries: 0 });
    const before = (await mockB.requests()).length;
    const { data, response } = await sandbox.chat.completions
      .create({ model: "gateway/auto", messages: [{ role: "user", content: "hi" }] }, { headers: { "x-gw-route": "quality" } })
      .withResponse();
    expect(response.headers.get("x-gw-moe-routed")).toBe("beta/gpt-5");
    expect(data.model).toBe("gpt-5");
    expect((await mockB.requests()).length).toBe(before);
  });
});

describe("fallback", () => {
  test("a provider answering 500, 429 or too slowly is skipped; the next answers with x-gw-attempts: 2, and only it is charged", async () => {
    for (const failing of ["fail-500", "fail-429", "slow-3000"]) {
      // The failing model is declared (so unpriced, so the cheapest): cost routes to it first.
      const ids = [await addProvider("flaky", mockA, [failing]), await addProvider("steady", mockB, ["gpt-4o-mini"])];
      try {
        const r = await routed({ "x-gw-route": "cost" });
        expect(r.routed).toBe("steady/gpt-4o-mini");
        expect(r.attempts).toBe("2");
        const rows = (await withStore(gw.dataDir, (s) => s.listUsageEvents(org.orgId))).filter((e) => e.requestId === r.requestId);
        // Each row says which attempt it was, so the answering row tells that the call took two.
        expect(rows.map((e) => [e.model, e.status === 200, e.costMicros > 0, e.attempts])).toEqual([
          [failing, false, false, 1],
          ["gpt-4o-mini", true, true, 2],
        ]);
      } finally {
        await removeProviders(ids);
      }
    }
  }, 20_000);

  /** A failing and a steady provider, fresh for each test: three failures in a row would open the failing one's circuit. */
  async function withFlaky(run: () => Promise<void>): Promise<void> {
    const ids = [await addProvider("flaky", mockA, ["fail-503", "fail-502"]), await addProvider("steady", mockB, ["gpt-4o-mini"])];
    try {
      await run();
    } finally {
      await removeProviders(ids);
    }
  }

  test("x-gw-fallback: off makes one attempt; a named model falls back to x-gw-fallback-models, and never to the router's choice", () =>
    withFlaky(async () => {
      const off = await client.chat.completions
        .create(
          { model: "gateway/auto", messages: [{ role: "user", content: LONG }] },
          { headers: { "x-gw-route": "cost", "x-gw-fallback": "off" } },
        )
        .catch((e) => e);
      expect(off.status).toBe(502);
      const { data, response } = await client.chat.completions
        .create(
          { model: "flaky/fail-503", messages: [{ role: "user", content: "hi" }] },
          { headers: { "x-gw-fallback-models": "steady/gpt-4o-mini" } },
        )
        .withResponse();
      expect(data.model).toBe("gpt-4o-mini");
      expect(response.headers.get("x-gw-attempts")).toBe("2");
      expect(response.headers.get("x-gw-moe-routed")).toBeNull();
    }));

  test("a streamed answer after a failure is recorded as the second attempt, the failure as the first", () =>
    withFlaky(async () => {
      const { data: stream, response } = await client.chat.completions
        .create(
          { model: "flaky/fail-503", stream: true, messages: [{ role: "user", content: "hi" }] },
          { headers: { "x-gw-fallback-models": "steady/gpt-4o-mini" } },
        )
        .withResponse();
      for await (const _ of stream);
      expect(response.headers.get("x-gw-attempts")).toBe("2");
      const requestId = response.headers.get("x-request-id");
      const rows = (await withStore(gw.dataDir, (s) => s.listUsageEvents(org.orgId))).filter((e) => e.requestId === requestId);
      expect(rows.map((e) => [e.model, e.status === 200, e.attempts])).toEqual([
        ["fail-503", false, 1],
        ["gpt-4o-mini", true, 2],
      ]);
    }));

  test("the organization's fallbackModels preference does the same without the header", () =>
    withFlaky(async () => {
      expect(
        (await gw.op(org.apiKey, "user.preferences", { set: { fallbackModels: { "flaky/fail-503": ["steady/gpt-4o-mini"] } } })).status,
      ).toBe(200);
      try {
        const { response } = await client.chat.completions
          .create({ model: "flaky/fail-503", messages: [{ role: "user", content: "hi" }] })
          .withResponse();
        expect(response.headers.get("x-gw-attempts")).toBe("2");
      } finally {
        await gw.op(org.apiKey, "user.preferences", { set: { fallbackModels: {} } });
      }
      const tooMany = await gw.op(org.apiKey, "user.preferences", { set: { fallbackModels: { "gpt-4o": ["a", "b", "c", "d", "e"] } } });
      expect(tooMany.status).toBe(400);
      // Without fallback models a named model's failure is the answer.
      const named = await client.chat.completions
        .create({ model: "flaky/fail-503", messages: [{ role: "user", content: "hi" }] })
        .catch((e) => e);
      expect(named.status).toBe(503);
    }));

  test("every target failing answers the last failure with the attempts; a fallback model that does not resolve is named", () =>
    withFlaky(async () => {
      const both = await client.chat.completions
        .create(
          { model: "flaky/fail-503", messages: [{ role: "user", content: "hi" }] },
          { headers: { "x-gw-fallback-models": "flaky/fail-502" } },
        )
        .catch((e) => e);
      expect(both.status).toBe(502);
      expect(both.headers.get("x-gw-attempts")).toBe("2");
      const unknown = await client.chat.completions
        .create(
          { model: "flaky/fail-503", messages: [{ role: "user", content: "hi" }] },
          { headers: { "x-gw-fallback-models": "nobody/nothing" } },
        )
        .catch((e) => e);
      expect(unknown.status).toBe(404);
      expect(unknown.message).toContain("nobody/nothing");
    }));

  test("a stream that breaks after its first chunk ends with an error and is not retried", async () => {
    // A provider of its own that the test stops mid-stream: one chunk every 100 ms.
    const dying = startMockInProcess(["--latency-ms", "3000", "--stream-chunks", "30"]);
    const ids = [await addProvider("dying", dying, ["mock-dying"]), await addProvider("steady", mockB, ["gpt-4o-mini"])];
    try {
      const before = (await mockB.requests()).length;
      const stream = await client.chat.completions.create(
        { model: "gateway/auto", stream: true, messages: [{ role: "user", content: "hi" }] },
        { headers: { "x-gw-route": "cost" } },
      );
      let chunks = 0;
      const failure = await (async () => {
        for await (const _ of stream) if (++chunks === 1) await dying.stop();
      })().catch((e) => e);
      expect(chunks).toBeGreaterThan(0);
      expect(chunks).toBeLessThan(30);
      expect(failure).toBeInstanceOf(Error);
      expect((await mockB.requests()).length).toBe(before);
    } finally {
      await removeProviders(ids);
      await dying.stop();
    }
  });
});

describe("POST /api/byok/route, ai.route and ai.health", () => {
  let ids: string[] = [];
  beforeAll(async () => {
    ids = [await addProvider("alpha", mockA, ["gpt-4.1-nano", "gpt-4o-mini"]), await addProvider("beta", mockB, ["gpt-5-nano", "gpt-5"])];
  });
  afterAll(() => removeProviders(ids));

  const post = (body: unknown, key = org.apiKey) =>
    fetch(`${gw.url}/api/byok/route`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  test("answers every field of the specification with the right types", async () => {
    const res = await post({
      strategy: "quality",
      messages: [{ role: "user", content: "route me" }],
      task_type: "code",
      max_completion_tokens: 50,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-gw-moe-routed")).toBe("beta/gpt-5");
    const a = (await res.json()) as any;
    expect(a).toMatchObject({ selectedProvider: "beta", selectedModel: "gpt-5", strategy: "quality" });
    expect(a.reasoning).toContain("beta/gpt-5");
    // code needs quality 75 or more: gpt-4.1-nano (70) and gpt-4o-mini (74) are not offered.
    expect(a.alternativeProviders.map((x: any) => `${x.provider}/${x.model}`)).toEqual(["beta/gpt-5-nano"]);
    for (const alt of a.alternativeProviders) {
      expect(typeof alt.provider).toBe("string");
      expect(typeof alt.model).toBe("string");
      expect(typeof alt.estimatedCost).toBe("number");
      expect(typeof alt.estimatedLatency).toBe("number");
      expect(typeof alt.score).toBe("number");
    }
    expect(a.response.choices[0].message.content.length).toBeGreaterThan(0);
    expect(a.response.usage.prompt_tokens).toBeGreaterThan(0);
    expect(typeof a.response.estimated_cost).toBe("number");
    expect(a.response.estimated_cost).toBeGreaterThan(0);
    expect(typeof a.performanceMetrics.latency).toBe("number");
    expect(typeof a.performanceMetrics.costSavings).toBe("number");
    expect(a.performanceMetrics.qualityScore).toBe(93);
  });

  test("bad strategy, missing messages and streaming are 400s in the general envelope", async () => {
    for (const body of [
      { strategy: "cheapest", messages: [{ role: "user", content: "x" }] },
      { strategy: "cost" },
      { strategy: "cost", messages: [] },
      { strategy: "cost", messages: [{ role: "user", content: "x" }], stream: true },
    ]) {
      const res = await post(body);
      expect(res.status).toBe(400);
      const e = (await res.json()) as any;
      expect(e.error.code).toBe("invalid_request");
      expect(typeof e.error.message).toBe("string");
    }
    expect((await post({ strategy: "cost", messages: [{ role: "user", content: "x" }] }, "gw_live_nope")).status).toBe(401);
  });

  test("ai.route takes the same params and answers the same shape", async () => {
    const r = await gw.op(org.apiKey, "ai.route", { strategy: "speed", messages: [{ role: "user", content: "route me" }] });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ selectedProvider: "alpha", selectedModel: "gpt-4.1-nano", strategy: "speed" });
    expect((await gw.op(org.apiKey, "ai.route", { strategy: "nope", messages: [] })).status).toBe(400);
  });

  test("ai.health and /metrics show each configuration's circuit, latency and error rate", async () => {
    const h = await gw.op(org.apiKey, "ai.health");
    expect(h.status).toBe(200);
    const beta = h.body.data.providers.find((p: any) => p.name === "beta");
    expect(beta).toMatchObject({ state: "closed", consecutiveFailures: 0, cooldownUntil: null });
    expect(beta.models.find((m: any) => m.model === "gpt-5").samples).toBeGreaterThan(0);
    const metrics = await (await fetch(`${gw.url}/metrics`)).text();
    expect(metrics).toContain(`gateway_provider_latency_seconds{provider_id="${ids[1]}",model="gpt-5"}`);
  });
});

describe("cooldown and provider limits", () => {
  test("after repeated failures the failing configuration is skipped without being called", async () => {
    const ids = [await addProvider("broken", mockA, ["fail-502"]), await addProvider("steady", mockB, ["gpt-4o-mini"])];
    try {
      // Three failures in a row (the default threshold) open its circuit.
      for (let i = 0; i < 3; i++) expect((await routed({ "x-gw-route": "cost" })).attempts).toBe("2");
      const before = (await mockA.requests()).length;
      const r = await routed({ "x-gw-route": "cost" });
      expect([r.routed, r.attempts]).toEqual(["steady/gpt-4o-mini", "1"]);
      expect((await mockA.requests()).length).toBe(before);
      const h = await gw.op(org.apiKey, "ai.health");
      expect(h.body.data.providers.find((p: any) => p.name === "broken").state).toBe("open");
    } finally {
      await removeProviders(ids);
    }
  });

  test("an explicit call to a provider at its limit is 429 with the reset time before it is called; routing skips it", async () => {
    const ids = [
      await addProvider("capped", mockA, ["gpt-5-nano"], { limits: { requestsPerDay: 1 } }),
      await addProvider("steady", mockB, ["gpt-4o-mini"]),
    ];
    try {
      await client.chat.completions.create({ model: "capped/gpt-5-nano", messages: [{ role: "user", content: "one" }] });
      const before = (await mockA.requests()).length;
      const err = await client.chat.completions
        .create({ model: "capped/gpt-5-nano", messages: [{ role: "user", content: "two" }] })
        .catch((e) => e);
      expect(err.status).toBe(429);
      expect(err.message).toContain("1 requests per day");
      expect(Number(err.headers.get("retry-after"))).toBeGreaterThan(0);
      expect((await mockA.requests()).length).toBe(before);
      // Cheapest, but at its limit: the router goes elsewhere.
      expect((await routed({ "x-gw-route": "cost" })).routed).toBe("steady/gpt-4o-mini");
      expect((await mockA.requests()).length).toBe(before);
    } finally {
      await removeProviders(ids);
    }
  }, 20_000);
});

describe("gateway/auto on /v1/messages", () => {
  test("routes among messages-format providers only, plain and streamed", async () => {
    // gpt-5 (quality 93) is better than claude-sonnet-4-0 (89) but speaks chat completions: not a candidate here.
    const ids = [
      await addProvider("chatty", mockA, ["gpt-5"]),
      await addProvider("claudish", mockB, ["claude-haiku-4-5", "claude-sonnet-4-0"], { format: "messages", baseUrl: mockB.url }),
    ];
    try {
      const anthropic = new Anthropic({ baseURL: gw.url, apiKey: org.apiKey, maxRetries: 0 });
      const { data, response } = await anthropic.messages
        .create(
          { model: "gateway/auto", max_tokens: 50, messages: [{ role: "user", content: "hi" }] },
          { headers: { "x-gw-route": "quality" } },
        )
        .withResponse();
      expect(response.headers.get("x-gw-moe-routed")).toBe("claudish/claude-sonnet-4-0");
      expect(data.model).toBe("claude-sonnet-4-0");
      const { data: stream, response: streamed } = await anthropic.messages
        .create(
          { model: "gateway/auto", max_tokens: 50, stream: true, messages: [{ role: "user", content: "hi" }] },
          { headers: { "x-gw-route": "quality" } },
        )
        .withResponse();
      expect(streamed.headers.get("x-gw-moe-routed")).toBe("claudish/claude-sonnet-4-0");
      let events = 0;
      for await (const _ of stream) events++;
      expect(events).toBeGreaterThan(2);
      // A family on this endpoint: within claude-haiku*, the only one.
      const haiku = await anthropic.messages
        .create(
          { model: "claude-haiku*", max_tokens: 50, messages: [{ role: "user", content: "hi" }] },
          { headers: { "x-gw-route": "quality" } },
        )
        .withResponse();
      expect(haiku.response.headers.get("x-gw-moe-routed")).toBe("claudish/claude-haiku-4-5");
    } finally {
      await removeProviders(ids);
    }
  }, 20_000);
});

describe("x-gw-route on a named model", () => {
  let ids: string[] = [];
  beforeAll(async () => {
    // The same model on two configurations: equal on every axis, so only the caller's naming tells them apart.
    ids = [await addProvider("left", mockA, ["gpt-4o-mini"]), await addProvider("right", mockB, ["gpt-4o-mini", "gpt-5-nano"])];
  });
  afterAll(() => removeProviders(ids));

  const named = async (model: string, strategy: string) => {
    const { data, response } = await client.chat.completions
      .create({ model, messages: [{ role: "user", content: LONG }], max_completion_tokens: 100 }, { headers: { "x-gw-route": strategy } })
      .withResponse();
    return { model: data.model, routed: response.headers.get("x-gw-moe-routed") };
  };

  test("engages the router as gateway/auto does, and echoes x-gw-moe-routed", async () => {
    // gpt-5-nano is the cheapest: the named model gives way to it.
    expect(await named("left/gpt-4o-mini", "cost")).toEqual({ model: "gpt-5-nano", routed: "right/gpt-5-nano" });
    expect((await mockB.requests()).at(-1)?.body).toMatchObject({ model: "gpt-5-nano" });
  });

  test("the named model ranks first among equals", async () => {
    // Under speed both gpt-4o-mini configurations tie (600 ms prior); unnamed, the tie would break on the name, to left.
    expect(await named("right/gpt-4o-mini", "speed")).toEqual({ model: "gpt-4o-mini", routed: "right/gpt-4o-mini" });
    expect(await named("left/gpt-4o-mini", "speed")).toEqual({ model: "gpt-4o-mini", routed: "left/gpt-4o-mini" });
  });

  test("a named model that does not exist is still 404, and a bad strategy 400", async () => {
    const missing = await named("nobody/nothing", "cost").catch((e) => e);
    expect(missing.status).toBe(404);
    const bad = await named("left/gpt-4o-mini", "cheapest").catch((e) => e);
    expect(bad.status).toBe(400);
    expect(bad.param).toBe("x-gw-route");
  });

  test("on /v1/messages: routed among messages-format providers only, else 400 moe_routing_unavailable", async () => {
    const anthropic = new Anthropic({ baseURL: gw.url, apiKey: org.apiKey, maxRetries: 0 });
    const claudish = await addProvider("claudish", mockB, ["claude-haiku-4-5", "claude-sonnet-4-0"], {
      format: "messages",
      baseUrl: mockB.url,
    });
    try {
      // quality: claude-sonnet-4-0 (89) over the named claude-haiku-4-5 (85); the chat-format models (gpt-5-nano, 76) are not candidates.
      const { data, response } = await anthropic.messages
        .create(
          { model: "claudish/claude-haiku-4-5", max_tokens: 50, messages: [{ role: "user", content: "hi" }] },
          { headers: { "x-gw-route": "quality" } },
        )
        .withResponse();
      expect(response.headers.get("x-gw-moe-routed")).toBe("claudish/claude-sonnet-4-0");
      expect(data.model).toBe("claude-sonnet-4-0");
    } finally {
      await removeProviders([claudish]);
    }
    // Only chat-completions providers left: routing would yield another format.
    const refused = await anthropic.messages
      .create(
        { model: "left/gpt-4o-mini", max_tokens: 50, messages: [{ role: "user", content: "hi" }] },
        { headers: { "x-gw-route": "cost" } },
      )
      .catch((e) => e);
    expect(refused.status).toBe(400);
    expect(refused.error).toMatchObject({ type: "error", error: { type: "invalid_request_error", code: "moe_routing_unavailable" } });
  });
});
