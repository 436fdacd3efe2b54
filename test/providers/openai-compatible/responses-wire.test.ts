/**
 * The Responses API as the gateway forwards it natively: the OpenAI adapter's request
 * (address, key, the provider's model id), and what the Responses wire reads back from
 * the mock's answers, whole and streamed: the answering model, usage, the pieces of
 * the answer, and the error event that ends a refused stream.
 */
import { describe, expect, test } from "bun:test";
import { ApiError } from "../../../src/lib/errors.ts";
import { type SseBlock, SseDecoder } from "../../../src/lib/sse.ts";
import { canRespond } from "../../../src/providers/adapter.ts";
import { PROVIDER_KINDS_INFO, type ProviderKind } from "../../../src/providers/catalog/provider-kinds.ts";
import { openAiCompatibleAdapter } from "../../../src/providers/openai-compatible/openai-adapter.ts";
import { reservedToolFees, TOOL_CALL_FEES } from "../../../src/providers/openai-compatible/responses-tool-fees.ts";
import { responsesWire } from "../../../src/providers/openai-compatible/responses-wire.ts";
import { offersResponses } from "../../../src/providers/specs.ts";
import { targetFor } from "../../../src/providers/target.ts";
import { sendUpstream } from "../../../src/providers/upstream.ts";
import { emptyUsage } from "../../../src/providers/wire-format.ts";
import { mockPerFile } from "../../support/mock-per-file.ts";

const mock = mockPerFile();

const target = (model: string) =>
  targetFor({
    info: PROVIDER_KINDS_INFO.openai,
    baseUrl: `${mock.url}/v1`,
    credentials: { type: "api-key", apiKey: "sk-openai-wire-test" },
    model,
    catalogModel: undefined,
    config: { id: "prv_wire", name: "wire", format: "chat", country: "US", settings: {} },
  });

async function send(model: string, body: Record<string, unknown>) {
  const req = openAiCompatibleAdapter.responsesRequest(target(model), body);
  return {
    req,
    up: await sendUpstream(req, { caller: { signal: new AbortController().signal }, timeoutMs: 10_000, providerName: "wire" }),
  };
}

test("OpenAI's kind serves the Responses API, and Azure's v1 API; the chat adapter can send it", () => {
  const configured = (kind: ProviderKind, baseUrl: string, settings: Record<string, unknown> = {}) =>
    targetFor({
      info: PROVIDER_KINDS_INFO[kind],
      baseUrl,
      credentials: { type: "api-key", apiKey: "k" },
      model: "m",
      catalogModel: undefined,
      config: { id: "p", name: kind, format: PROVIDER_KINDS_INFO[kind].format, country: "US", settings },
    });
  expect(canRespond(openAiCompatibleAdapter)).toBe(true);
  expect(offersResponses(configured("openai", "https://api.openai.com/v1"))).toBe(true);
  for (const kind of ["mistral", "azure-openai", "self-hosted", "anthropic", "bedrock"] as const)
    expect(offersResponses(configured(kind, "https://provider.example", { region: "us-east-1" }))).toBe(false);
  expect(offersResponses(configured("azure-openai", "https://res.openai.azure.com", { apiVersion: "v1" }))).toBe(true);
  expect(offersResponses(configured("azure-openai", "https://res.openai.azure.com/openai/v1"))).toBe(true);
});

describe("a whole answer", () => {
  test("posted to <base>/responses with the key, naming the provider's model; model and usage read from the body", async () => {
    const { req, up } = await send("gpt-4o", { model: "openai/gpt-4o", input: "Say hello" });
    expect(req.url).toBe(`${mock.url}/v1/responses`);
    expect(req.headers.authorization).toBe("Bearer sk-openai-wire-test");
    expect(JSON.parse(req.body!).model).toBe("gpt-4o");
    const body = (await up.response.json()) as Record<string, unknown>;
    up.done();
    const usage = responsesWire.fromBody(body);
    expect(usage.model).toBe("gpt-4o");
    expect(usage.promptTokens).toBeGreaterThan(0);
    expect(usage.completionTokens).toBeGreaterThan(0);
  });
});

describe("a stream", () => {
  test("the model is named once (response.created), usage comes with response.completed, every delta is a piece", async () => {
    const { up } = await send("gpt-4o", { model: "gpt-4o", input: "Tell me a story", stream: true });
    const decoder = new SseDecoder();
    const usage = emptyUsage();
    let named = 0;
    let pieces = 0;
    let deltas = 0;
    const read = (blocks: SseBlock[]) => {
      for (const b of blocks) {
        if (!b.event) continue;
        if (responsesWire.fromEvent(b.event, usage)) named++;
        if (responsesWire.carriesAnswer(b.event)) pieces++;
        if (b.event.event === "response.output_text.delta") deltas++;
      }
    };
    for await (const chunk of up.response.body!) read(decoder.push(chunk));
    read(decoder.end().blocks);
    expect(named).toBe(1);
    expect(usage.model).toBe("gpt-4o");
    expect(usage.promptTokens).toBeGreaterThan(0);
    expect(usage.completionTokens).toBeGreaterThan(0);
    expect(deltas).toBeGreaterThan(1);
    expect(pieces).toBe(deltas);
  });

  test("an empty delta, or another event quoting the word delta, is not a piece", () => {
    const ev = (data: Record<string, unknown>) => ({ event: null, data: JSON.stringify(data), id: null });
    expect(responsesWire.carriesAnswer(ev({ type: "response.output_text.delta", delta: "" }))).toBe(false);
    expect(responsesWire.carriesAnswer(ev({ type: "response.output_text.done", text: '"delta":"x"' }))).toBe(false);
    expect(responsesWire.carriesAnswer(ev({ type: "response.function_call_arguments.delta", delta: "{" }))).toBe(true);
  });

  test("a refused stream: response.created (the event it replaces) then response.failed, numbered, with the closest listed code", () => {
    const created = { type: "response.created", sequence_number: 0, response: { id: "resp_1", model: "other-model", tools: [] } };
    const refusal = new ApiError(502, "model_substitution_detected", "answered by another model", { details: { requested: "gpt-4o" } });
    const bytes = responsesWire.errorEvent(refusal, { event: "response.created", data: JSON.stringify(created), id: null });
    const events = new SseDecoder().push(bytes).map((b) => JSON.parse(b.event!.data));
    expect(events.map((e) => [e.type, e.sequence_number])).toEqual([
      ["response.created", 0],
      ["response.failed", 1],
    ]);
    expect(events[1].response).toMatchObject({
      id: "resp_1",
      model: "gpt-4o",
      status: "failed",
      error: { code: "server_error", message: "answered by another model", gw: { code: "model_substitution_detected" } },
    });
  });

  test("it ends with response.completed, .incomplete, .failed or an error event, named or told from the data alone", () => {
    const ev = (type: string, named = true) => ({
      event: named ? type : null,
      data: JSON.stringify({ type, sequence_number: 3 }),
      id: null,
    });
    expect(
      ["response.completed", "response.incomplete", "response.failed", "error", "response.output_text.delta"].map((t) =>
        responsesWire.streamEnd(ev(t)),
      ),
    ).toEqual(["done", "done", "error", "error", null]);
    expect(["response.completed", "error", "response.in_progress"].map((t) => responsesWire.streamEnd(ev(t, false)))).toEqual([
      "done",
      "error",
      null,
    ]);
    // Its closing event carries the whole response, which the gateway does not keep: never written in its place.
    expect(responsesWire.closingFor(emptyUsage(), [ev("response.output_text.done")])).toBeNull();
  });

  test("response.failed's error and the error event's members give the status the same error answered whole has", () => {
    const failed = {
      event: "response.failed",
      data: JSON.stringify({ type: "response.failed", response: { status: "failed", error: { code: "server_error", message: "boom" } } }),
      id: null,
    };
    expect(responsesWire.errorOf(failed)).toEqual({ status: 500, message: "boom" });
    const error = { event: "error", data: JSON.stringify({ type: "error", code: "rate_limit_exceeded", message: "slow" }), id: null };
    expect(responsesWire.errorOf(error)).toEqual({ status: 429, message: "slow" });
  });

  test("one that stopped short gets response.failed after its last event, numbered next, with no second response.created", () => {
    const last = {
      event: "response.output_text.delta",
      data: JSON.stringify({ type: "response.output_text.delta", sequence_number: 7, delta: "a" }),
      id: null,
    };
    const bytes = responsesWire.errorEvent(new ApiError(502, "stream_interrupted", "ended before its last event"), last, true);
    const events = new SseDecoder().push(bytes).map((b) => JSON.parse(b.event!.data));
    expect(events.map((e) => [e.type, e.sequence_number])).toEqual([["response.failed", 8]]);
    expect(events[0].response).toMatchObject({ status: "failed", error: { message: "ended before its last event" } });
  });
});

describe("built-in tool fees", () => {
  const output = [
    { type: "web_search_call", id: "ws_1", status: "completed" },
    { type: "web_search_call", id: "ws_2", status: "completed" },
    { type: "function_call", id: "fc_1", call_id: "c", name: "f", arguments: "{}" },
    { type: "message", id: "msg_1", role: "assistant", content: [] },
  ];

  test("each built-in tool call in the answer's output carries its listed fee; functions and messages none", () => {
    const usage = responsesWire.fromBody({ model: "gpt-4o", usage: { input_tokens: 10, output_tokens: 5 }, output });
    expect(usage.feeMicros).toBe(2 * TOOL_CALL_FEES.web_search_call!);
    expect(responsesWire.fromBody({ model: "gpt-4o", usage: { input_tokens: 1, output_tokens: 1 }, output: [] }).feeMicros).toBe(0);
  });

  test("streamed, the fees are read from the finished response", () => {
    const usage = emptyUsage();
    const ev = (data: Record<string, unknown>) => ({ event: null, data: JSON.stringify(data), id: null });
    responsesWire.fromEvent(ev({ type: "response.created", response: { model: "gpt-4o", usage: null, output: [] } }), usage);
    expect(usage.feeMicros ?? 0).toBe(0);
    responsesWire.fromEvent(
      ev({ type: "response.completed", response: { model: "gpt-4o", usage: { input_tokens: 3, output_tokens: 4 }, output } }),
      usage,
    );
    expect(usage).toMatchObject({ promptTokens: 3, completionTokens: 4, feeMicros: 2 * TOOL_CALL_FEES.web_search_call! });
  });

  test("the reservation holds each declared built-in tool's fee once per allowed call", () => {
    expect(reservedToolFees([{ type: "web_search_preview" }, { type: "function", name: "f" }], undefined)).toBe(
      TOOL_CALL_FEES.web_search_call!,
    );
    expect(reservedToolFees([{ type: "file_search" }], 4)).toBe(4 * TOOL_CALL_FEES.file_search_call!);
    expect(reservedToolFees(null, 3)).toBe(0);
  });

  test("an item or tool named as a member every object has carries no fee and does not void the others", () => {
    const odd = ["constructor", "__proto__", "toString"].map((type) => ({ type, id: "x" }));
    const usage = responsesWire.fromBody({ model: "gpt-4o", usage: { input_tokens: 1, output_tokens: 1 }, output: [...odd, ...output] });
    expect(usage.feeMicros).toBe(2 * TOOL_CALL_FEES.web_search_call!);
    expect(reservedToolFees([{ type: "constructor" }, { type: "__proto__" }, { type: "file_search" }], 2)).toBe(
      2 * TOOL_CALL_FEES.file_search_call!,
    );
  });
});

test("the Responses API's cached input tokens are their part of input_tokens, whole and streamed", () => {
  const usage = { input_tokens: 3000, input_tokens_details: { cached_tokens: 2048 }, output_tokens: 9 };
  expect(responsesWire.fromBody({ model: "gpt-4o", usage, output: [] })).toMatchObject({
    promptTokens: 3000,
    cache: { read: 2048, write: 0, writeLong: 0 },
  });
  const acc = { model: "gpt-4o", promptTokens: 0, completionTokens: 0 };
  responsesWire.fromEvent({ event: "response.completed", data: JSON.stringify({ response: { usage, output: [] } }), id: null }, acc);
  expect(acc).toMatchObject({ promptTokens: 3000, completionTokens: 9, cache: { read: 2048, write: 0, writeLong: 0 } });
});

describe("the service tier a response was served at", () => {
  test("read from a whole response's service_tier", () => {
    expect(responsesWire.bodyMembers).toContain("service_tier");
    const body = { model: "gpt-5", service_tier: "priority", usage: { input_tokens: 5, output_tokens: 1 } };
    expect(responsesWire.fromBody(body).serviceTier).toBe("priority");
    expect(responsesWire.fromBody({ ...body, service_tier: null }).serviceTier).toBeUndefined();
  });

  test("streamed, read from the finished response, not from the one response.created announces", () => {
    const usage = emptyUsage();
    const at = (event: string, data: string) => responsesWire.fromEvent({ event, data, id: null }, usage);
    at("response.created", '{"type":"response.created","response":{"model":"gpt-5","service_tier":"auto","usage":null}}');
    expect(usage.serviceTier).toBeUndefined();
    at(
      "response.completed",
      '{"type":"response.completed","response":{"model":"gpt-5","service_tier":"priority","usage":{"input_tokens":5,"output_tokens":1}}}',
    );
    expect(usage).toMatchObject({ promptTokens: 5, completionTokens: 1, serviceTier: "priority" });
  });
});
