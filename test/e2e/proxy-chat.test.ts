/**
 * Bring-your-own-key proxying with the official `openai` client, unchanged but for its
 * base URL and key, against the gateway and the project's mock provider.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import OpenAI from "openai";
import { initOrg, type InitResult, removeDir, type RunningGateway, startGateway, tempDataDir } from "../support/gateway-process.ts";
import { withStore } from "../support/store-access.ts";
import { OPENAI_AT_MOCK } from "../support/provider-configs.ts";
import { stackPerFile } from "../support/stack.ts";

const PROVIDER_KEY = "sk-proj-test-provider-key-0123456789abcdef";
let client: OpenAI;

const stack = stackPerFile({
  env: { GW_UPSTREAM_TIMEOUT_S: "5", GW_FLUSH_INTERVAL_MS: "50" },
  providers: [{ ...OPENAI_AT_MOCK, apiKey: PROVIDER_KEY }],
});

beforeAll(async () => {
  // A short provider deadline for the 504 test, with room for a cold first call on a loaded machine.
  client = new OpenAI({ baseURL: `${stack.gw.url}/v1`, apiKey: stack.org.apiKey, maxRetries: 0 });
});

describe("chat completions", () => {
  test("a plain completion reaches the provider with the caller's provider key", async () => {
    const res = await client.chat.completions.create({
      model: "gpt-4o",
      messages: [{ role: "user", content: "Say hello" }],
      temperature: 0.2,
      max_tokens: 50,
    });
    expect(res.object).toBe("chat.completion");
    expect(res.model).toBe("gpt-4o");
    expect(res.choices[0]?.message.content).toBeTruthy();
    expect(res.usage?.prompt_tokens).toBeGreaterThan(0);
    const last = (await stack.mock.requests()).at(-1)!;
    expect(last.path).toBe("/v1/chat/completions");
    expect(last.authorization).toBe(`Bearer ${PROVIDER_KEY}`);
    // The limit under the name OpenAI's chat API takes (its reasoning models refuse `max_tokens`).
    expect(last.body).toMatchObject({ model: "gpt-4o", temperature: 0.2, max_completion_tokens: 50 });
  });

  test("streaming: chunks arrive as the provider sends them; the usage chunk only when asked", async () => {
    const stream = await client.chat.completions.create({
      model: "gpt-4o",
      messages: [{ role: "user", content: "Stream please" }],
      stream: true,
    });
    const pieces: string[] = [];
    let sawUsage = false;
    for await (const chunk of stream) {
      if (chunk.usage) sawUsage = true;
      pieces.push(chunk.choices[0]?.delta?.content ?? "");
    }
    expect(pieces.join("").length).toBeGreaterThan(10);
    expect(sawUsage).toBe(false);
    // The gateway asked the provider for usage anyway, to price the call.
    expect((await stack.mock.requests()).at(-1)?.body.stream_options).toEqual({ include_usage: true });

    const withUsage = await client.chat.completions.create({
      model: "gpt-4o",
      messages: [{ role: "user", content: "Stream please" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of withUsage) usage = chunk.usage ?? usage;
    expect(usage?.completion_tokens).toBeGreaterThan(0);
  });

  test("tools, tool_choice, JSON mode and image inputs pass through", async () => {
    const tools: OpenAI.ChatCompletionTool[] = [
      {
        type: "function",
        function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },
      },
    ];
    const res = await client.chat.completions.create({
      model: "gpt-4o",
      messages: [{ role: "user", content: "Weather in Paris?" }],
      tools,
      tool_choice: "auto",
    });
    expect(res.choices[0]?.finish_reason).toBe("tool_calls");
    const call = res.choices[0]?.message.tool_calls?.[0];
    expect(call?.type === "function" && call.function.name).toBe("get_weather");
    await client.chat.completions.create({
      model: "gpt-4o",
      response_format: { type: "json_object" },
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "Describe" },
            { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
          ],
        },
      ],
    });
    const seen = (await stack.mock.requests()).at(-1)!.body;
    expect(seen.response_format).toEqual({ type: "json_object" });
    expect(seen.messages[0].content[1]).toEqual({ type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } });
    // Fields the gateway does not know pass through untouched.
    await client.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: "x" }], seed: 7, logprobs: true } as never);
    expect((await stack.mock.requests()).at(-1)?.body).toMatchObject({ seed: 7, logprobs: true });
  });

  test("the request table's rules are enforced with clear errors", async () => {
    const bad = async (body: object) => {
      const res = await fetch(`${stack.gw.url}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${stack.org.apiKey}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    const msg = [{ role: "user", content: "x" }];
    for (const [body, param] of [
      [{ messages: msg }, "model"],
      [{ model: "gpt-4o" }, "messages"],
      [{ model: "gpt-4o", messages: [] }, "messages"],
      [{ model: "gpt-4o", messages: [{ role: "robot", content: "x" }] }, "messages.0.role"],
      [{ model: "gpt-4o", messages: msg, temperature: 2.5 }, "temperature"],
      [{ model: "gpt-4o", messages: msg, top_p: -0.1 }, "top_p"],
      [{ model: "gpt-4o", messages: msg, max_tokens: 0 }, "max_tokens"],
      [{ model: "gpt-4o", messages: msg, n: 0 }, "n"],
      [{ model: "gpt-4o", messages: msg, stream: "yes" }, "stream"],
    ] as const) {
      const r = await bad(body);
      expect(r.status).toBe(400);
      expect(r.body.error.type).toBe("invalid_request_error");
      expect(r.body.error.param).toBe(param);
    }
  });

  test("a missing or bad gateway key is 401 in this envelope", async () => {
    const anonymous = new OpenAI({ baseURL: `${stack.gw.url}/v1`, apiKey: "gw_live_wrong", maxRetries: 0 });
    const err = await anonymous.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: "x" }] }).catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(err.error).toMatchObject({ type: "authentication_error", code: "unauthorized" });
  });
});

describe("upstream failures", () => {
  let selfHosted: string;
  beforeAll(async () => {
    const r = await stack.gw.op(stack.org.apiKey, "provider.create", {
      provider: "self-hosted",
      name: "lab",
      apiKey: "lab-key-123456",
      baseUrl: `${stack.mock.url}/v1`,
      country: "US",
      models: ["mock-model"],
      scope: "organization",
    });
    selfHosted = r.body.data.provider.id;
  });

  test("a provider 4xx comes back with its status and message, never the key", async () => {
    const err = await client.chat.completions.create({ model: "lab/fail-400", messages: [{ role: "user", content: "x" }] }).catch((e) => e);
    expect(err.status).toBe(400);
    expect(err.error.message).toContain("mock provider failure 400");
    expect(err.error.message).toContain("[redacted]");
    expect(err.error.message).not.toContain("lab-key-123456");
    expect(err.error.code).toBe("provider_error");
  });

  test("a provider 5xx is 502 provider_error (503 unavailable: 503); 429 keeps its status", async () => {
    expect(
      (await client.chat.completions.create({ model: "lab/fail-500", messages: [{ role: "user", content: "x" }] }).catch((e) => e)).status,
    ).toBe(502);
    expect(
      (await client.chat.completions.create({ model: "lab/fail-503", messages: [{ role: "user", content: "x" }] }).catch((e) => e)).status,
    ).toBe(503);
    expect(
      (await client.chat.completions.create({ model: "lab/fail-429", messages: [{ role: "user", content: "x" }] }).catch((e) => e)).status,
    ).toBe(429);
  });

  test("a provider that does not answer in time is 504", async () => {
    const err = await client.chat.completions
      .create({ model: "lab/slow-9000", messages: [{ role: "user", content: "x" }] })
      .catch((e) => e);
    expect(err.status).toBe(504);
    expect(err.error.code).toBe("provider_timeout");
  });

  test("an unreachable provider is 503 provider_unavailable", async () => {
    await stack.gw.op(stack.org.apiKey, "provider.create", {
      provider: "custom",
      name: "gone",
      apiKey: "k-123456789",
      baseUrl: "http://127.0.0.1:9/v1",
      country: "US",
      models: ["gone-model"],
      scope: "organization",
    });
    const err = await client.chat.completions.create({ model: "gone-model", messages: [{ role: "user", content: "x" }] }).catch((e) => e);
    expect(err.status).toBe(503);
    expect(err.error.code).toBe("provider_unavailable");
  });

  test("a declared self-hosted model resolves without a prefix", async () => {
    const res = await client.chat.completions.create({ model: "mock-model", messages: [{ role: "user", content: "x" }] });
    expect(res.model).toBe("mock-model");
    expect((await stack.mock.requests()).at(-1)?.authorization).toBe("Bearer lab-key-123456");
    expect(selfHosted).toMatch(/^prv_/);
  });

  test("a client that disconnects mid-stream aborts the upstream request", async () => {
    const before = await stack.mock.stats();
    const controller = new AbortController();
    const res = await fetch(`${stack.gw.url}/v1/chat/completions`, {
      method: "POST",
      signal: controller.signal,
      headers: { authorization: `Bearer ${stack.org.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "lab/slow-1500", stream: true, messages: [{ role: "user", content: "long answer" }] }),
    });
    const reader = res.body!.getReader();
    await reader.read();
    controller.abort();
    await Bun.sleep(1000);
    const after = await stack.mock.stats();
    expect(after.streamsStarted).toBe(before.streamsStarted + 1);
    expect(after.streamsCancelled).toBe(before.streamsCancelled + 1);
  });

  test("a client that leaves before the provider answers ends the upstream call", async () => {
    const controller = new AbortController();
    const call = fetch(`${stack.gw.url}/v1/chat/completions`, {
      method: "POST",
      signal: controller.signal,
      headers: { authorization: `Bearer ${stack.org.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "lab/slow-1501", messages: [{ role: "user", content: "long answer" }] }),
    }).catch((e) => e);
    await Bun.sleep(300);
    controller.abort();
    expect(await call).toBeInstanceOf(Error);
    // Past the mock's 1.5 s: had the gateway kept waiting, the mock would have answered a caller still there.
    await Bun.sleep(1600);
    // By its own model: other tests' calls (the deadline's) are let go of while this one runs.
    expect((await stack.mock.stats()).abandonedByModel["slow-1501"]).toBe(1);
  });
});

describe("resolution", () => {
  test("an unknown model is 404; a known vendor without a key names what to configure", async () => {
    const unknown = await client.chat.completions
      .create({ model: "no-such-model", messages: [{ role: "user", content: "x" }] })
      .catch((e) => e);
    expect(unknown.status).toBe(404);
    const unconfigured = await client.chat.completions
      .create({ model: "mistral-large-latest", messages: [{ role: "user", content: "x" }] })
      .catch((e) => e);
    expect(unconfigured.status).toBe(400);
    expect(unconfigured.error.code).toBe("provider_not_configured");
    expect(unconfigured.error.message).toContain('provider.create (provider: "mistral")');
  });
});

describe("a per-request provider key", () => {
  const PER_REQUEST = "sk-per-request-key-never-stored-42";
  const STORED = "sk-stored-openai-key-0123456789";
  let pgw: RunningGateway;
  let porg: InitResult;
  let catalogDir: string;

  beforeAll(async () => {
    // The vendor's public address is moved to the mock, where a per-request key goes.
    catalogDir = tempDataDir();
    const catalog = join(catalogDir, "catalog.json");
    writeFileSync(catalog, JSON.stringify({ providers: { openai: { defaultBaseUrl: `${stack.mock.url}/v1` } } }));
    const dataDir = tempDataDir();
    porg = await initOrg(dataDir);
    pgw = await startGateway({ dataDir, env: { GW_CATALOG: catalog, GW_LOG_LEVEL: "debug", GW_FLUSH_INTERVAL_MS: "50" } });
  });

  afterAll(async () => {
    if (pgw.proc.exitCode === null) await pgw.stop();
    removeDir(pgw.dataDir);
    removeDir(catalogDir);
  });

  const chat = (headers: Record<string, string>, body: object = { model: "gpt-4o", messages: [{ role: "user", content: "x" }] }) =>
    fetch(`${pgw.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${porg.apiKey}`, "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
  const perRequest = { "x-gw-provider-key": PER_REQUEST, "x-gw-provider": "openai" };
  const lastSeen = async () => (await stack.mock.requests()).at(-1)!;
  /** Every response body and header value this test received, to search for the key. */
  const received: string[] = [];
  const keep = async (res: Response) => {
    const text = await res.text();
    received.push(text, ...[...res.headers.values()]);
    return { status: res.status, text, headers: res.headers };
  };

  test("reaches the provider for that call only; without it, the call needs a configured provider", async () => {
    const once = await keep(await chat(perRequest));
    expect(once.status).toBe(200);
    expect(once.headers.get("x-gw-provider")).toBe("openai/gpt-4o");
    const seen = await lastSeen();
    expect(seen.authorization).toBe(`Bearer ${PER_REQUEST}`);
    // The gateway's own headers are not forwarded: the key reaches the provider only as its credential.
    expect(Object.entries(seen.headers).filter(([, v]) => v.includes(PER_REQUEST))).toEqual([["authorization", `Bearer ${PER_REQUEST}`]]);

    const next = await keep(await chat({}));
    expect(next.status).toBe(400);
    expect(JSON.parse(next.text).error).toMatchObject({ code: "provider_not_configured", param: "model" });
    expect(JSON.parse(next.text).error.message).toContain('provider.create (provider: "openai")');
    expect((await lastSeen()).authorization).toBe(`Bearer ${PER_REQUEST}`); // nothing else was sent
  });

  test("with a stored key configured, the per-request key still wins for its call, and the stored key answers the next", async () => {
    const created = await pgw.op(porg.apiKey, "provider.create", { provider: "openai", apiKey: STORED, scope: "organization" });
    expect(created.status).toBe(200);
    expect(created.body.data.provider.baseUrl).toBeNull(); // the catalog's default address, now the mock
    expect((await keep(await chat({}))).status).toBe(200);
    expect((await lastSeen()).authorization).toBe(`Bearer ${STORED}`);
    expect((await keep(await chat(perRequest))).status).toBe(200);
    expect((await lastSeen()).authorization).toBe(`Bearer ${PER_REQUEST}`);
    expect((await keep(await chat({}))).status).toBe(200);
    expect((await lastSeen()).authorization).toBe(`Bearer ${STORED}`);
  });

  test("streams, embeddings and ai.proxy take it too", async () => {
    const stream = await keep(await chat(perRequest, { model: "gpt-4o", stream: true, messages: [{ role: "user", content: "stream" }] }));
    expect(stream.status).toBe(200);
    expect(stream.text).toContain("data: [DONE]");
    expect((await lastSeen()).authorization).toBe(`Bearer ${PER_REQUEST}`);
    const emb = await keep(
      await fetch(`${pgw.url}/v1/embeddings`, {
        method: "POST",
        headers: { authorization: `Bearer ${porg.apiKey}`, "content-type": "application/json", ...perRequest },
        body: JSON.stringify({ model: "text-embedding-3-small", input: "x" }),
      }),
    );
    expect(emb.status).toBe(200);
    expect((await lastSeen()).authorization).toBe(`Bearer ${PER_REQUEST}`);
    const op = await pgw.op(
      porg.apiKey,
      "ai.proxy",
      { provider: "openai", model: "gpt-4o", messages: [{ role: "user", content: "x" }] },
      perRequest,
    );
    received.push(JSON.stringify(op.body), ...[...op.headers.values()]);
    expect(op.status).toBe(200);
    expect((await lastSeen()).authorization).toBe(`Bearer ${PER_REQUEST}`);
  });

  test("a provider error that quotes the key comes back without it", async () => {
    // The mock's errors quote the key they were sent, as real providers' often do.
    const failed = await keep(await chat(perRequest, { model: "openai/fail-401", messages: [{ role: "user", content: "x" }] }));
    expect(failed.status).toBe(401);
    expect(JSON.parse(failed.text).error.message).toContain("[redacted]");
    expect((await lastSeen()).authorization).toBe(`Bearer ${PER_REQUEST}`);
  });

  test("it never appears in any response, log line or file of the data folder", async () => {
    received.push(JSON.stringify((await pgw.op(porg.apiKey, "provider.list")).body));
    for (const r of received) expect(r.includes(PER_REQUEST)).toBe(false);
    expect(received.length).toBeGreaterThan(20);
    await Bun.sleep(200);
    expect(await pgw.stop()).toBe(0); // the final flush and snapshot are written too
    // The gateway logs JSON lines to stdout (here at debug level, the most it says).
    const logs = pgw.lines.join("\n");
    expect(logs).toContain('"msg":"stopped"');
    expect(logs.includes(PER_REQUEST)).toBe(false);
    const files = readdirSync(pgw.dataDir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile());
    expect(files.map((f) => f.name)).toContain("gateway.db");
    for (const f of files)
      expect([f.name, readFileSync(join(f.parentPath, f.name)).toString("latin1").includes(PER_REQUEST)]).toEqual([f.name, false]);
    // The calls were accounted (so the files were written after them), under the vendor kind.
    const rows = await withStore(pgw.dataDir, (store) => store.listUsageEvents(porg.orgId));
    expect(rows.filter((r) => r.provider === "openai" && r.status === 200).length).toBeGreaterThanOrEqual(7);
  });
});

describe("embeddings and models", () => {
  test("embeddings, float and base64, with dimensions", async () => {
    const floats = await client.embeddings.create({
      model: "text-embedding-3-small",
      input: ["one", "two"],
      dimensions: 8,
      encoding_format: "float",
    });
    expect(floats.data).toHaveLength(2);
    expect(floats.data[0]?.embedding).toHaveLength(8);
    const b64 = await fetch(`${stack.gw.url}/v1/embeddings`, {
      method: "POST",
      headers: { authorization: `Bearer ${stack.org.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "text-embedding-3-small", input: "x", encoding_format: "base64", dimensions: 4 }),
    });
    const body = (await b64.json()) as any;
    expect(typeof body.data[0].embedding).toBe("string");
    expect(Buffer.from(body.data[0].embedding, "base64").length).toBe(16);
  });

  test("embeddings with a messages-vendor model fail with wrong_endpoint", async () => {
    await stack.gw.op(stack.org.apiKey, "provider.create", {
      provider: "anthropic",
      apiKey: "sk-ant-test-1234567890",
      baseUrl: stack.mock.url,
      scope: "organization",
    });
    const err = await client.embeddings.create({ model: "claude-sonnet-4-5", input: "x" }).catch((e) => e);
    expect(err.status).toBe(400);
    expect(err.error.code).toBe("wrong_endpoint");
  });

  test("the model list is the providers' own lists plus their catalog entries", async () => {
    const list = await client.models.list();
    const ids = list.data.map((m) => m.id);
    expect(ids).toContain("gpt-4o"); // catalog and provider
    expect(ids).toContain("gpt-4.1-nano"); // catalog only
    expect(ids).toContain("mock-model"); // declared by the self-hosted provider
    expect(ids).not.toContain("mistral-large-latest"); // no mistral provider configured
    for (const m of list.data) expect(m).toMatchObject({ object: "model", created: expect.any(Number), owned_by: expect.any(String) });
  });
});

describe("gateway operations", () => {
  test("ai.proxy, both parameter forms, returns the provider's response plus estimated_cost", async () => {
    const flat = await stack.gw.op(stack.org.apiKey, "ai.proxy", {
      provider: "openai",
      model: "gpt-4o",
      messages: [{ role: "user", content: "hi" }],
      max_tokens: 20,
    });
    expect(flat.status).toBe(200);
    expect(flat.body.data).toMatchObject({ object: "chat.completion", model: "gpt-4o" });
    expect(flat.body.data.estimated_cost).toBeGreaterThan(0);
    const endpoint = await stack.gw.op(stack.org.apiKey, "ai.proxy", {
      provider: "openai",
      endpoint: "/v1/chat/completions",
      body: { model: "gpt-4o", messages: [{ role: "user", content: "hi" }] },
    });
    expect(endpoint.body.data.choices).toHaveLength(1);
    const emb = await stack.gw.op(stack.org.apiKey, "ai.proxy", {
      provider: "openai",
      endpoint: "embeddings",
      body: { model: "text-embedding-3-small", input: "hi" },
    });
    expect(emb.body.data.object).toBe("list");
    expect((await stack.gw.op(stack.org.apiKey, "ai.proxy", { provider: "openai", endpoint: "/v1/files", body: {} })).status).toBe(400);
    expect(
      (await stack.gw.op(stack.org.apiKey, "ai.proxy", { provider: "openai", model: "gpt-4o", messages: [], stream: true })).status,
    ).toBe(400);
  });

  test("ai.cost from tokens or from messages", async () => {
    const byTokens = await stack.gw.op(stack.org.apiKey, "ai.cost", {
      model: "gpt-4o",
      prompt_tokens: 1_000_000,
      completion_tokens: 100_000,
    });
    expect(byTokens.body.data).toMatchObject({
      model: "gpt-4o",
      provider: "openai",
      inputCostUsd: 2.5,
      outputCostUsd: 1,
      totalCostUsd: 3.5,
    });
    const byMessages = await stack.gw.op(stack.org.apiKey, "ai.cost", {
      model: "gpt-4o-2024-08-06",
      messages: [{ role: "user", content: "Hello there" }],
      max_tokens: 100,
    });
    expect(byMessages.body.data.promptTokens).toBeGreaterThan(3);
    expect(byMessages.body.data.outputCostUsd).toBeCloseTo(0.001, 6);
    expect((await stack.gw.op(stack.org.apiKey, "ai.cost", { model: "nope", prompt_tokens: 1 })).status).toBe(404);
  });

  test("ai.cost prices cache reads and writes as calls are charged, and refuses parts larger than the prompt", async () => {
    // gpt-4o: input $2.50, cached input $1.25 per million tokens.
    const openai = await stack.gw.op(stack.org.apiKey, "ai.cost", { model: "gpt-4o", prompt_tokens: 1_000_000, cached_tokens: 400_000 });
    expect(openai.body.data).toMatchObject({ cachedTokens: 400_000, inputCostUsd: 1.5, cacheCostUsd: 0.5, totalCostUsd: 2 });
    // Anthropic's rule: reads at 0.1x and (5-minute) writes at 1.25x the input price ($3 for claude-sonnet-4-5),
    // for a prompt under its 200K long-context threshold (above it, the band's rates: test/e2e/price-bands.test.ts).
    const anthropic = await stack.gw.op(stack.org.apiKey, "ai.cost", {
      model: "claude-sonnet-4-5",
      prompt_tokens: 100_000,
      cached_tokens: 50_000,
      cache_write_tokens: 40_000,
    });
    expect(anthropic.body.data.inputCostUsd).toBeCloseTo(0.03, 9);
    expect(anthropic.body.data.cacheCostUsd).toBeCloseTo(0.015 + 0.15, 9);
    const tooMany = await stack.gw.op(stack.org.apiKey, "ai.cost", {
      model: "gpt-4o",
      prompt_tokens: 10,
      cached_tokens: 8,
      cache_write_tokens: 3,
    });
    expect(tooMany.status).toBe(400);
    expect(JSON.stringify(tooMany.body)).toContain("cannot add up to more");
  });

  test("ai.models is the same list as GET /v1/models", async () => {
    const op = await stack.gw.op(stack.org.apiKey, "ai.models");
    const http = (await (
      await fetch(`${stack.gw.url}/v1/models`, { headers: { authorization: `Bearer ${stack.org.apiKey}` } })
    ).json()) as any;
    expect(op.body.data.data.map((m: any) => m.id).sort()).toEqual(http.data.map((m: any) => m.id).sort());
  });
});

describe("accounting and secrets", () => {
  test("one usage event per call, priced, without text; lastUsed and requestCount move", async () => {
    await client.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: "count me SECRET-PROMPT-TEXT" }] });
    await Bun.sleep(300);
    const [rows, key] = await withStore(
      stack.gw.dataDir,
      async (store) => [await store.listUsageEvents(stack.org.orgId), await store.getApiKey(stack.org.keyId)] as const,
    );
    const ok = rows.filter((r) => r.status === 200 && r.provider === "openai");
    expect(ok.length).toBeGreaterThan(5);
    const last = ok.at(-1);
    expect(last).toMatchObject({ keyId: stack.org.keyId, model: "gpt-4o", errorCode: null });
    expect(last?.promptTokens).toBeGreaterThan(0);
    expect(last?.costMicros).toBeGreaterThan(0);
    expect(rows.some((r) => r.status === 504 && r.errorCode === "provider_timeout")).toBe(true);
    expect(key?.requestCount).toBeGreaterThan(10);
    expect(key?.spentMicros).toBeGreaterThan(0);
    for (const r of rows) expect(JSON.stringify(r)).not.toContain("SECRET-PROMPT-TEXT");
  });

  test("providers show only a key hint; no provider key or prompt text is on disk", async () => {
    const list = await stack.gw.op(stack.org.apiKey, "provider.list");
    const openai = list.body.data.providers.find((p: any) => p.provider === "openai");
    expect(openai.keyHint).toBe("sk-...cdef");
    expect(JSON.stringify(list.body)).not.toContain(PROVIDER_KEY);
    for (const f of readdirSync(stack.gw.dataDir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile())) {
      const bytes = readFileSync(join(f.parentPath, f.name)).toString("latin1");
      expect(bytes.includes(PROVIDER_KEY)).toBe(false);
      expect(bytes.includes("SECRET-PROMPT-TEXT")).toBe(false);
    }
    expect(stack.gw.lines.join("\n")).not.toContain(PROVIDER_KEY);
  });
});
