/**
 * SPEC "Resources and their fields": the lines no other test holds. `created` is Unix
 * time in seconds wherever the gateway answers a chat completion (natively, translated
 * from the messages format, streamed, through routing); a response through `ai.proxy`
 * is the provider's own, unmodified but for the added `estimated_cost`; every optional
 * field of the two request tables reaches the provider as sent, and each rule of the
 * messages table is a 400 naming its field; the gateway request's `context` is checked.
 */
import { expect, test } from "bun:test";
import { ANTHROPIC_AT_MOCK, OPENAI_AT_MOCK } from "../support/provider-configs.ts";
import { stackPerFile } from "../support/stack.ts";
import { sseJson } from "../support/sse-text.ts";

const OPENAI_KEY = "sk-spec-openai-0123456789";

const stack = stackPerFile({
  providers: [
    { ...OPENAI_AT_MOCK, apiKey: OPENAI_KEY },
    { ...ANTHROPIC_AT_MOCK, apiKey: "sk-ant-spec-0123456789" },
  ],
});

const hi = [{ role: "user", content: "hi" }];
const post = (path: string, body: object, headers: Record<string, string> = {}) =>
  fetch(`${stack.gw.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${stack.org.apiKey}`, "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

/** Unix seconds of about now: not milliseconds, not a fixed placeholder. */
function expectUnixSecondsNow(what: string, created: unknown): void {
  expect([what, Number.isInteger(created)]).toEqual([what, true]);
  expect([what, Math.abs((created as number) - Date.now() / 1000) < 600]).toEqual([what, true]);
}

const chunksOf = (sse: string): any[] => sseJson(sse);

test("chat completion `created` is Unix seconds: native, translated, streamed and routed answers", async () => {
  for (const model of ["gpt-4o", "claude-sonnet-4-5", "gateway/auto"]) {
    const plain = (await (await post("/v1/chat/completions", { model, messages: hi })).json()) as any;
    expect([model, plain.object]).toEqual([model, "chat.completion"]);
    expectUnixSecondsNow(`${model} plain`, plain.created);
    const stream = await post("/v1/chat/completions", { model, messages: hi, stream: true });
    expect(stream.headers.get("content-type")).toStartWith("text/event-stream");
    const chunks = chunksOf(await stream.text());
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) expectUnixSecondsNow(`${model} chunk`, chunk.created);
  }
  const routed = (await (await post("/api/byok/route", { strategy: "cost", messages: hi })).json()) as any;
  expectUnixSecondsNow("route response", routed.response.created);
});

test("ai.proxy answers the provider's own response, unmodified but for a numeric estimated_cost", async () => {
  const body = { model: "gpt-4o", messages: hi, max_tokens: 20 };
  const viaGateway = await stack.gw.op(stack.org.apiKey, "ai.proxy", { provider: "openai", endpoint: "chat/completions", body });
  expect(viaGateway.status).toBe(200);
  const direct = (await (
    await fetch(`${stack.mock.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${OPENAI_KEY}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    })
  ).json()) as any;
  const { estimated_cost, ...answer } = viaGateway.body.data;
  expect(typeof estimated_cost).toBe("number");
  expect(estimated_cost).toBeGreaterThan(0);
  // The provider stamps `created` when it answers; every other field is as the provider sent it.
  expect({ ...answer, created: 0 }).toEqual({ ...direct, created: 0 });
});

test("every field of the chat-completions request table reaches the provider as sent", async () => {
  const weather = {
    type: "function",
    function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },
  };
  const body = {
    model: "gpt-4o",
    messages: [
      { role: "system", content: "Be brief." },
      { role: "user", content: "Weather in Paris?", name: "ann" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }],
      },
      { role: "tool", content: "sunny", tool_call_id: "call_1" },
    ],
    temperature: 0,
    top_p: 1,
    max_tokens: 1,
    n: 2,
    stop: ["\n\n"],
    tools: [weather],
    tool_choice: { type: "function", function: { name: "get_weather" } },
    response_format: { type: "json_object" },
    user: "end-user-7",
  };
  const res = await post("/v1/chat/completions", body);
  expect(res.status).toBe(200);
  expect(((await res.json()) as any).choices).toHaveLength(2);
  const seen = (await stack.mock.requests()).at(-1)!;
  expect(seen.path).toBe("/v1/chat/completions");
  // The limit goes under the name the vendor reads for every model (its reasoning models refuse `max_tokens`).
  const { max_tokens, ...rest } = body;
  expect(seen.body).toMatchObject({ ...rest, max_completion_tokens: max_tokens });
  expect(seen.body).not.toHaveProperty("max_tokens");
});

/** The messages endpoint as its clients call it: the key in x-api-key, with the version header. */
const sendMessages = (body: object) => post("/v1/messages", body, { "x-api-key": stack.org.apiKey, "msg-version": "2023-06-01" });

test("every field of the messages request table reaches the vendor as sent", async () => {
  const body = {
    model: "claude-sonnet-4-5",
    max_tokens: 64,
    system: "Be brief.",
    messages: [
      { role: "user", content: "Weather in Paris?" },
      { role: "assistant", content: [{ type: "text", text: "Let me look." }] },
      { role: "user", content: [{ type: "text", text: "Go on." }] },
    ],
    temperature: 0.5,
    top_p: 0.9,
    top_k: 40,
    tools: [{ name: "get_weather", input_schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } }],
    tool_choice: { type: "auto" },
  };
  const res = await sendMessages(body);
  expect(res.status).toBe(200);
  expect(((await res.json()) as any).type).toBe("message");
  const seen = (await stack.mock.requests()).at(-1)!;
  expect(seen.path).toBe("/v1/messages");
  expect(seen.body).toMatchObject(body);
});

test("each rule of the messages request table is a 400 in the messages envelope naming the field", async () => {
  const ok = { model: "claude-sonnet-4-5", max_tokens: 8, messages: [{ role: "user", content: "hi" }] };
  const { model: _model, ...noModel } = ok;
  const { messages: _messages, ...noMessages } = ok;
  const { max_tokens: _max, ...noMax } = ok;
  const cases: [object, string][] = [
    [noModel, "model"],
    [noMessages, "messages"],
    [noMax, "max_tokens"],
    [{ ...ok, max_tokens: 0 }, "max_tokens"],
    [{ ...ok, messages: [{ role: "system", content: "hi" }] }, "messages.0.role"],
    [{ ...ok, messages: [{ content: "hi" }] }, "messages.0.role"],
    [{ ...ok, messages: [{ role: "user" }] }, "messages.0.content"],
    [{ ...ok, system: 5 }, "system"],
    [{ ...ok, stream: "yes" }, "stream"],
    [{ ...ok, top_k: 1.5 }, "top_k"],
    [{ ...ok, temperature: "hot" }, "temperature"],
    [{ ...ok, top_p: "high" }, "top_p"],
    [{ ...ok, tools: {} }, "tools"],
    [{ ...ok, tool_choice: "auto" }, "tool_choice"],
  ];
  for (const [body, field] of cases) {
    const res = await sendMessages(body);
    const error = ((await res.json()) as any).error;
    expect([field, res.status, error.type]).toEqual([field, 400, "invalid_request_error"]);
    expect([field, error.message.startsWith(`${field} `)]).toEqual([field, true]);
  }
});

test("the gateway request: params may be left out; context's applicationId and scope (user or organization) are accepted, other scopes refused", async () => {
  const noParams = await post("/api/v1/gateway", { operation: "user.me" });
  expect(noParams.status).toBe(200);
  expect(((await noParams.json()) as any).success).toBe(true);
  for (const scope of ["user", "organization"]) {
    const r = await post("/api/v1/gateway", { operation: "user.me", params: {}, context: { applicationId: "nightly-etl", scope } });
    expect([scope, r.status]).toEqual([scope, 200]);
    await r.arrayBuffer();
  }
  const bad = await post("/api/v1/gateway", { operation: "user.me", params: {}, context: { scope: "team" } });
  expect(bad.status).toBe(400);
  expect(await bad.json()).toEqual({
    success: false,
    data: null,
    error: expect.stringContaining("context.scope"),
    code: "invalid_request",
  });
});
