/**
 * `POST /v1/responses` with the official openai client: plain, streamed and with a tool
 * call, forwarded natively to OpenAI (which serves the Responses API), translated to
 * chat completions for another chat-format vendor (Mistral), and on to messages for a
 * messages-format one, through the same policy stages as chat: blocked prompts, usage
 * rows, spend caps and sandbox keys.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import OpenAI from "openai";
import { withStore } from "../support/store-access.ts";
import { ANTHROPIC_AT_MOCK, OPENAI_AT_MOCK } from "../support/provider-configs.ts";
import { stackPerFile } from "../support/stack.ts";
import { RESPONSES_WEATHER_TOOL } from "../support/weather-tool.ts";

let openai: OpenAI;
const LEAKED_KEY = "ghp_Q7vLm2Rk9XwTz4Hn8Bc3Pd6Yf1Gs5Ja0KeWx";

const stack = stackPerFile({
  env: { GW_FLUSH_INTERVAL_MS: "50" },
  providers: [
    { ...OPENAI_AT_MOCK, apiKey: "sk-openai-test-123456" },
    { provider: "mistral", apiKey: "sk-mistral-test-123456", baseUrl: "{mock}/v1" },
    { ...ANTHROPIC_AT_MOCK, apiKey: "sk-ant-vendor-test-123456" },
  ],
});

beforeAll(async () => {
  openai = new OpenAI({ baseURL: `${stack.gw.url}/v1`, apiKey: stack.org.apiKey, maxRetries: 0 });
});

const weather = RESPONSES_WEATHER_TOOL;
const lastUpstream = async () => (await stack.mock.requests()).at(-1)!;

for (const [label, model, path] of [
  ["OpenAI, natively", "gpt-4o", "/v1/responses"],
  ["a chat-format provider without the Responses API, translated", "mistral-large-latest", "/v1/chat/completions"],
  ["a messages-format provider, translated", "claude-sonnet-4-5", "/v1/messages"],
] as const) {
  describe(`through ${label}`, () => {
    test("plain: instructions and input reach the provider, the answer is a response", async () => {
      const r = await openai.responses.create({ model, instructions: "Be brief.", input: "Hello there", max_output_tokens: 60 });
      expect(r.object).toBe("response");
      expect(r.status).toBe("completed");
      expect(r.model).toBe(model);
      expect(r.output_text.length).toBeGreaterThan(10);
      expect(r.usage!.input_tokens).toBeGreaterThan(0);
      expect(r.usage!.output_tokens).toBeGreaterThan(0);
      const seen = await lastUpstream();
      expect(seen.path).toBe(path);
      expect(JSON.stringify(seen.body)).toContain("Be brief.");
      expect(JSON.stringify(seen.body)).toContain("Hello there");
    });

    test("streamed: typed events rebuild the same response", async () => {
      const stream = openai.responses.stream({ model, input: "Stream please" });
      let text = "";
      stream.on("response.output_text.delta", (e) => {
        text += e.delta;
      });
      const final = await stream.finalResponse();
      expect(final.status).toBe("completed");
      expect(text.length).toBeGreaterThan(10);
      expect(final.output_text).toBe(text);
      expect(final.usage!.output_tokens).toBeGreaterThan(0);
    });

    test("a tool call comes back as a function_call item, and its output goes back in", async () => {
      const r = await openai.responses.create({ model, input: "Weather in Paris?", tools: [weather] });
      const call = r.output.find((o) => o.type === "function_call");
      expect(call).toMatchObject({ type: "function_call", name: "get_weather" });
      if (call?.type !== "function_call") throw new Error("no call");
      const next = await openai.responses.create({
        model,
        tools: [weather],
        input: [
          { role: "user", content: "Weather in Paris?" },
          call,
          { type: "function_call_output", call_id: call.call_id, output: "sunny, 21 C" },
        ],
      });
      expect(next.status).toBe("completed");
      expect(JSON.stringify((await lastUpstream()).body)).toContain("sunny, 21 C");
    });
  });
}

describe("policy", () => {
  test("a leaked credential in instructions is 400 security_violation in the OpenAI envelope, never forwarded", async () => {
    const before = (await stack.mock.requests()).length;
    const err = await openai.responses.create({ model: "gpt-4o", instructions: `use ${LEAKED_KEY}`, input: "hi" }).catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect(err.status).toBe(400);
    expect(err.error).toMatchObject({ code: "security_violation" });
    expect(JSON.stringify(err.error)).not.toContain(LEAKED_KEY);
    expect((await stack.mock.requests()).length).toBe(before);
  });

  test("stored state and built-in tools reach a provider that serves the Responses API, as written", async () => {
    const first = await openai.responses.create({ model: "gpt-4o", input: "Remember the number 42." });
    const r = await openai.responses.create({
      model: "gpt-4o",
      input: "and then?",
      previous_response_id: first.id,
      tools: [{ type: "web_search_preview" }],
    });
    expect(r.status).toBe("completed");
    const seen = await lastUpstream();
    expect(seen.path).toBe("/v1/responses");
    expect(seen.body).toMatchObject({ previous_response_id: first.id, tools: [{ type: "web_search_preview" }] });
    // The provider's own answer to an id it never gave comes back as its 404, in the OpenAI envelope.
    const unknown = await openai.responses.create({ model: "gpt-4o", input: "x", previous_response_id: "resp_nope" }).catch((e) => e);
    expect(unknown).toBeInstanceOf(OpenAI.NotFoundError);
  });

  test("what chat completions cannot carry is a 400 naming the field, never sent; ranges are checked in the caller's names", async () => {
    const before = (await stack.mock.requests()).length;
    for (const model of ["mistral-large-latest", "claude-sonnet-4-5"]) {
      const stateful = await openai.responses.create({ model, input: "hi", previous_response_id: "resp_1" }).catch((e) => e);
      expect(stateful.status).toBe(400);
      expect(stateful.error).toMatchObject({ code: "invalid_request", param: "previous_response_id" });
      const builtIn = await openai.responses.create({ model, input: "hi", tools: [{ type: "web_search_preview" }] }).catch((e) => e);
      expect(builtIn.status).toBe(400);
      expect(builtIn.error.param).toBe("tools[0].type");
    }
    expect((await stack.mock.requests()).length).toBe(before);
    const range = await openai.responses.create({ model: "gpt-4o", input: "hi", max_output_tokens: 0 }).catch((e) => e);
    expect(range.status).toBe(400);
    expect(range.error.param).toBe("max_output_tokens");
    expect(range.error.message).toContain("at least 1");
  });

  test("a substituted model is refused as for chat: 502 plain, response.failed streamed", async () => {
    const plain = await openai.responses.create({ model: "openai/swap-gpt-4o", input: "hi" }).catch((e) => e);
    expect(plain.status).toBe(502);
    expect(plain.error).toMatchObject({ code: "model_substitution_detected" });
    const types: string[] = [];
    let failed: any = null;
    for await (const e of await openai.responses.create({ model: "openai/swap-gpt-4o", input: "hi", stream: true })) {
      types.push(e.type);
      if (e.type === "response.failed") failed = e.response;
    }
    expect(types.at(-1)).toBe("response.failed");
    // The description's closest listed code, the gateway's own beside it.
    expect(failed.error).toMatchObject({ code: "server_error", gw: { code: "model_substitution_detected" } });
    expect(types).not.toContain("response.completed");
  });

  test("an unknown model is 404 model_not_found in the OpenAI envelope", async () => {
    const err = await openai.responses.create({ model: "no-such-model", input: "hi" }).catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.NotFoundError);
    expect(err.error.code).toBe("model_not_found");
  });

  test("every call is a usage row, charged like chat", async () => {
    const created = await stack.gw.op(stack.org.apiKey, "org.service-account.create", { serviceAccountName: "responses-usage" });
    const { id, key } = created.body.data.apiKey;
    const client = new OpenAI({ baseURL: `${stack.gw.url}/v1`, apiKey: key, maxRetries: 0 });
    await client.responses.create({ model: "gpt-4o", input: "count me" });
    const events: string[] = [];
    for await (const e of await client.responses.create({ model: "claude-sonnet-4-5", input: "and me", stream: true })) events.push(e.type);
    expect(events.at(-1)).toBe("response.completed");
    let rows: { keyId: string | null; costMicros: number; status: number; model: string }[] = [];
    for (let i = 0; i < 100 && rows.length < 2; i++) {
      await Bun.sleep(50);
      rows = (await withStore(stack.gw.dataDir, (s) => s.listUsageEvents(stack.org.orgId))).filter((e) => e.keyId === id);
    }
    expect(rows.map((r) => r.model).sort()).toEqual(["claude-sonnet-4-5", "gpt-4o"]);
    for (const r of rows) {
      expect(r.status).toBe(200);
      expect(r.costMicros).toBeGreaterThan(0);
    }
  });

  test("a built-in tool's call is charged at its listed fee on top of the tokens, the row marked estimated", async () => {
    const created = await stack.gw.op(stack.org.apiKey, "org.service-account.create", { serviceAccountName: "responses-tools" });
    const { id, key } = created.body.data.apiKey;
    const client = new OpenAI({ baseURL: `${stack.gw.url}/v1`, apiKey: key, maxRetries: 0 });
    const r = await client.responses.create({ model: "gpt-4o", input: "Search the news", tools: [{ type: "web_search_preview" }] });
    expect(r.output[0]!.type).toBe("web_search_call");
    await client.responses.create({ model: "gpt-4o", input: "Search the news" });
    let rows: { keyId: string | null; costMicros: number; priceEstimated?: boolean }[] = [];
    for (let i = 0; i < 100 && rows.length < 2; i++) {
      await Bun.sleep(50);
      rows = (await withStore(stack.gw.dataDir, (s) => s.listUsageEvents(stack.org.orgId))).filter((e) => e.keyId === id);
    }
    const [withTool, plain] = rows;
    expect(withTool!.priceEstimated).toBe(true);
    expect(plain!.priceEstimated).toBe(false);
    expect(withTool!.costMicros - plain!.costMicros).toBeGreaterThanOrEqual(20_000);
  });

  test("a background response is refused before anything is sent: its answer would never be charged", async () => {
    const before = (await stack.mock.requests()).length;
    const err = await openai.responses.create({ model: "gpt-4o", input: "long work", background: true }).catch((e) => e);
    expect(err.status).toBe(400);
    expect(err.error.param).toBe("background");
    expect((await stack.mock.requests()).length).toBe(before);
  });

  test("spend caps refuse Responses calls as chat calls", async () => {
    const created = await stack.gw.op(stack.org.apiKey, "org.service-account.create", {
      serviceAccountName: "responses-capped",
      monthlyCapCents: 0,
    });
    const client = new OpenAI({ baseURL: `${stack.gw.url}/v1`, apiKey: created.body.data.apiKey.key, maxRetries: 0 });
    const err = await client.responses.create({ model: "gpt-4o", input: "x" }).catch((e) => e);
    expect(err.status).toBe(429);
    expect(err.error.code).toBe("monthly_cap_exceeded");
  });

  test("sandbox keys answer from the simulator in the Responses shape, plain and streamed", async () => {
    const created = await stack.gw.op(stack.org.apiKey, "org.service-account.create", {
      serviceAccountName: "responses-sandbox",
      keyType: "test",
    });
    const sandbox = new OpenAI({ baseURL: `${stack.gw.url}/v1`, apiKey: created.body.data.apiKey.key, maxRetries: 0 });
    const before = (await stack.mock.requests()).length;
    const plain = await sandbox.responses.create({ model: "gpt-4o", input: "hello sandbox" });
    expect(plain.object).toBe("response");
    expect(plain.output_text.length).toBeGreaterThan(0);
    const streamed = await sandbox.responses.stream({ model: "claude-sonnet-4-5", input: "hi" }).finalResponse();
    expect(streamed.status).toBe("completed");
    expect(streamed.output_text.length).toBeGreaterThan(0);
    // What a live key may send to OpenAI, a test key may too: stored state and built-in tools.
    const next = await sandbox.responses.create({
      model: "gpt-4o",
      input: "and then?",
      previous_response_id: plain.id,
      tools: [{ type: "web_search_preview" }],
    });
    expect(next.status).toBe("completed");
    const unknown = await sandbox.responses.create({ model: "gpt-4o", input: "x", previous_response_id: "resp_nope" }).catch((e) => e);
    expect(unknown.status).toBe(404);
    const translated = await sandbox.responses
      .create({ model: "claude-sonnet-4-5", input: "x", previous_response_id: plain.id })
      .catch((e) => e);
    expect(translated.status).toBe(400);
    expect((await stack.mock.requests()).length).toBe(before);
  });
});
