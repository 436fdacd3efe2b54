/**
 * `ai.proxy` as the specification states it: `endpoint` is any provider path the
 * provider's format offers, `body` goes through the policy stages, and the answer is the
 * provider's own response plus `estimated_cost`: a messages-format provider's messages
 * come back as messages, not translated, in the endpoint form and the flat form alike.
 */
import { expect, test } from "bun:test";
import { withStore } from "../support/store-access.ts";
import { ANTHROPIC_AT_MOCK, OPENAI_AT_MOCK } from "../support/provider-configs.ts";
import { stackPerFile } from "../support/stack.ts";

const VENDOR_KEY = "sk-ant-api03-vendor-key-for-proxy-0000";

const messagesBody = { model: "claude-sonnet-4-5", max_tokens: 50, system: "Be brief.", messages: [{ role: "user", content: "Hello" }] };

const stack = stackPerFile({
  env: { GW_FLUSH_INTERVAL_MS: "50" },
  providers: [
    { ...ANTHROPIC_AT_MOCK, apiKey: VENDOR_KEY },
    { ...OPENAI_AT_MOCK, apiKey: "sk-openai-test-123456" },
  ],
});

test("endpoint messages: the vendor's own messages answer, plus estimated_cost, and a usage row", async () => {
  for (const endpoint of ["messages", "/v1/messages"]) {
    const r = await stack.gw.op(stack.org.apiKey, "ai.proxy", { provider: "anthropic", endpoint, body: messagesBody });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      type: "message",
      role: "assistant",
      model: "claude-sonnet-4-5",
      usage: { input_tokens: expect.any(Number) },
    });
    expect(r.body.data.choices).toBeUndefined();
    expect(r.body.data.estimated_cost).toBeGreaterThan(0);
    expect(r.headers.get("x-gw-provider")).toBe("anthropic/claude-sonnet-4-5");
    const seen = (await stack.mock.requests()).at(-1)!;
    expect(seen).toMatchObject({ path: "/v1/messages", apiKey: VENDOR_KEY });
    expect(seen.body.system).toBe("Be brief.");
  }
  let rows: unknown[] = [];
  for (let i = 0; i < 100 && rows.length < 2; i++) {
    await Bun.sleep(50);
    rows = (await withStore(stack.gw.dataDir, (s) => s.listUsageEvents(stack.org.orgId))).filter(
      (e) => e.model === "claude-sonnet-4-5" && e.status === 200,
    );
  }
  expect(rows).toHaveLength(2);
});

test("the flat form to a messages-format provider: the vendor's own messages answer too, plus estimated_cost", async () => {
  const r = await stack.gw.op(stack.org.apiKey, "ai.proxy", {
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    messages: [
      { role: "system", content: "Be brief." },
      { role: "user", content: "Hello" },
    ],
    temperature: 0.5,
    max_tokens: 40,
  });
  expect(r.status).toBe(200);
  expect(r.body.data).toMatchObject({
    type: "message",
    role: "assistant",
    model: "claude-sonnet-4-5",
    usage: { output_tokens: expect.any(Number) },
  });
  expect(r.body.data.choices).toBeUndefined();
  expect(r.body.data.estimated_cost).toBeGreaterThan(0);
  const seen = (await stack.mock.requests()).at(-1)!;
  expect(seen).toMatchObject({ path: "/v1/messages", apiKey: VENDOR_KEY });
  expect(seen.body).toMatchObject({ system: "Be brief.", max_tokens: 40, messages: [{ role: "user" }] });
  // A chat-completions provider's flat answer stays a chat completion.
  const chat = await stack.gw.op(stack.org.apiKey, "ai.proxy", {
    provider: "openai",
    model: "gpt-4o",
    messages: [{ role: "user", content: "Hello" }],
  });
  expect(chat.status).toBe(200);
  expect(chat.body.data).toMatchObject({ object: "chat.completion", model: "gpt-4o" });
  expect(chat.body.data.estimated_cost).toBeGreaterThan(0);
});

test("endpoint responses: OpenAI's own Responses answer plus estimated_cost; another format's answer in the Responses shape", async () => {
  const r = await stack.gw.op(stack.org.apiKey, "ai.proxy", {
    provider: "openai",
    endpoint: "responses",
    body: { model: "gpt-4o", input: "Hello" },
  });
  expect(r.status).toBe(200);
  expect(r.body.data).toMatchObject({ object: "response", status: "completed", model: "gpt-4o" });
  expect(r.body.data.estimated_cost).toBeGreaterThan(0);
  expect((await stack.mock.requests()).at(-1)!.path).toBe("/v1/responses");
  const translated = await stack.gw.op(stack.org.apiKey, "ai.proxy", {
    provider: "anthropic",
    endpoint: "/v1/responses",
    body: { model: "claude-sonnet-4-5", input: "Hello" },
  });
  expect(translated.status).toBe(200);
  expect(translated.body.data).toMatchObject({ object: "response", status: "completed" });
  expect((await stack.mock.requests()).at(-1)!.path).toBe("/v1/messages");
});

test("endpoint messages/count_tokens: the vendor's count, free", async () => {
  const r = await stack.gw.op(stack.org.apiKey, "ai.proxy", {
    provider: "anthropic",
    endpoint: "messages/count_tokens",
    body: { model: "claude-sonnet-4-5", messages: [{ role: "user", content: "Count me" }] },
  });
  expect(r.status).toBe(200);
  expect(r.body.data.input_tokens).toBeGreaterThan(0);
  expect(r.body.data.estimated_cost).toBe(0);
  expect((await stack.mock.requests()).at(-1)!.path).toBe("/v1/messages/count_tokens");
});

test("the messages path of a chat-completions provider, a path nobody proxies, a bad body: 400s naming the field", async () => {
  const wrongFormat = await stack.gw.op(stack.org.apiKey, "ai.proxy", {
    provider: "openai",
    endpoint: "messages",
    body: { ...messagesBody, model: "gpt-4o" },
  });
  expect(wrongFormat.status).toBe(400);
  expect(wrongFormat.body.error).toContain("chat-completions");
  for (const endpoint of ["/v1/files", "constructor", "__proto__"]) {
    const unknown = await stack.gw.op(stack.org.apiKey, "ai.proxy", { provider: "openai", endpoint, body: {} });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toContain(
      "params.endpoint must be a provider path the gateway proxies: chat/completions, responses, embeddings, messages, messages/count_tokens",
    );
  }
  const bad = await stack.gw.op(stack.org.apiKey, "ai.proxy", {
    provider: "anthropic",
    endpoint: "messages",
    body: { ...messagesBody, max_tokens: 0 },
  });
  expect(bad.status).toBe(400);
  expect(bad.body.error).toBe("params.max_tokens must be a whole number of at least 1");
});

test("a blocked prompt is refused before the provider, as on every other way in", async () => {
  const before = (await stack.mock.requests()).length;
  const r = await stack.gw.op(stack.org.apiKey, "ai.proxy", {
    provider: "anthropic",
    endpoint: "messages",
    body: { ...messagesBody, messages: [{ role: "user", content: "key ghp_Q7vLm2Rk9XwTz4Hn8Bc3Pd6Yf1Gs5Ja0KeWx" }] },
  });
  expect(r.status).toBe(400);
  expect(r.body.code).toBe("security_violation");
  expect((await stack.mock.requests()).length).toBe(before);
});
