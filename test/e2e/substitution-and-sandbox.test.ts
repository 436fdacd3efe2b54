/** Model substitution is refused in every shape of answer; sandbox (gw_test_) keys never reach a provider. */
import { beforeAll, describe, expect, test } from "bun:test";
import OpenAI from "openai";
import { withStore } from "../support/store-access.ts";
import { LAB_AT_MOCK } from "../support/provider-configs.ts";
import { stackPerFile } from "../support/stack.ts";
import { sseEvents } from "../support/sse-text.ts";

let live: OpenAI;

const stack = stackPerFile({ env: { GW_FLUSH_INTERVAL_MS: "50" }, providers: [{ ...LAB_AT_MOCK, models: ["house-llm"] }] });

beforeAll(async () => {
  live = new OpenAI({ baseURL: `${stack.gw.url}/v1`, apiKey: stack.org.apiKey, maxRetries: 0 });
});

const usageRows = () => withStore(stack.gw.dataDir, (store) => store.listUsageEvents(stack.org.orgId));

describe("model substitution", () => {
  test("a plain answer from another model is 502 model_substitution_detected, and its cost is recorded", async () => {
    const err = await live.chat.completions
      .create({ model: "lab/swap-gpt-4o-mini", messages: [{ role: "user", content: "x" }] })
      .catch((e) => e);
    expect(err.status).toBe(502);
    expect(err.error.code).toBe("model_substitution_detected");
    expect(err.error.message).toContain("gpt-4o-mini");
    await Bun.sleep(200);
    const row = (await usageRows()).at(-1);
    expect(row).toMatchObject({ status: 502, errorCode: "model_substitution_detected", model: "swap-gpt-4o-mini" });
    expect(row?.promptTokens).toBeGreaterThan(0);
  });

  test("a stream from another model ends with an error event before any of its content", async () => {
    const res = await fetch(`${stack.gw.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${stack.org.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "lab/swap-gpt-4o-mini", stream: true, messages: [{ role: "user", content: "x" }] }),
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    const events = sseEvents(text);
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0]!.data)).toMatchObject({
      error: { code: "model_substitution_detected", type: "server_error" },
    });
    expect(text).not.toContain("[DONE]");
    await Bun.sleep(200);
    expect((await usageRows()).at(-1)).toMatchObject({ status: 502, errorCode: "model_substitution_detected" });
  });

  test("the official client surfaces the stream's error", async () => {
    const stream = await live.chat.completions.create({
      model: "lab/swap-gpt-4o-mini",
      stream: true,
      messages: [{ role: "user", content: "x" }],
    });
    const err = await (async () => {
      for await (const _ of stream) {
        // no content should arrive
      }
    })().catch((e) => e);
    expect(String(err?.message ?? err)).toContain("instead of the requested");
  });

  test("an embeddings answer from another model is refused too, though the gateway reads only its model and usage", async () => {
    const err = await live.embeddings.create({ model: "lab/swap-text-embedding-3-large", input: "a document to embed" }).catch((e) => e);
    expect(err.status).toBe(502);
    expect(err.error.code).toBe("model_substitution_detected");
    const ok = await live.embeddings.create({ model: "lab/text-embedding-3-small", input: "a document to embed", dimensions: 4 });
    expect(ok.data[0]?.embedding).toHaveLength(4);
    await Bun.sleep(200);
    const rows = (await usageRows()).slice(-2);
    expect(rows[0]).toMatchObject({ status: 502, errorCode: "model_substitution_detected", model: "swap-text-embedding-3-large" });
    expect(rows[0]?.promptTokens).toBeGreaterThan(0);
    expect(rows[1]).toMatchObject({ status: 200, errorCode: null, model: "text-embedding-3-small", promptTokens: ok.usage.prompt_tokens });
  });

  test("an answer that is not a JSON object is 502 provider_error, for chat and embeddings", async () => {
    const chat = await live.chat.completions
      .create({ model: "lab/garbled-gpt-4o", messages: [{ role: "user", content: "x" }] })
      .catch((e) => e);
    const emb = await live.embeddings.create({ model: "lab/garbled-text-embedding-3-small", input: "x" }).catch((e) => e);
    for (const err of [chat, emb]) {
      expect(err.status).toBe(502);
      expect(err.error.code).toBe("provider_error");
      expect(err.error.message).toContain("not a JSON object");
    }
    await Bun.sleep(200);
    for (const row of (await usageRows()).slice(-2)) expect(row).toMatchObject({ status: 502, errorCode: "provider_error" });
  });

  test("a dated snapshot of the requested model is not a substitution, plain or streamed", async () => {
    const plain = await live.chat.completions.create({ model: "lab/dated-gpt-4o", messages: [{ role: "user", content: "x" }] });
    expect(plain.model).toBe("dated-gpt-4o-2024-08-06");
    const stream = await live.chat.completions.create({
      model: "lab/dated-gpt-4o",
      stream: true,
      messages: [{ role: "user", content: "x" }],
    });
    let text = "";
    for await (const c of stream) text += c.choices[0]?.delta?.content ?? "";
    expect(text.length).toBeGreaterThan(10);
  });
});

describe("sandbox keys", () => {
  let sandbox: OpenAI;
  let sandboxKey: string;
  beforeAll(async () => {
    const r = await stack.gw.op(stack.org.apiKey, "org.service-account.create", { serviceAccountName: "sandbox", keyType: "test" });
    sandboxKey = r.body.data.apiKey.key;
    sandbox = new OpenAI({ baseURL: `${stack.gw.url}/v1`, apiKey: sandboxKey, maxRetries: 0 });
  });

  test("answers plain, streamed, with tools and embeddings, and never reaches a provider", async () => {
    const before = (await stack.mock.requests()).length;
    const plain = await sandbox.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: "hello sandbox" }] });
    expect(plain.object).toBe("chat.completion");
    expect(plain.usage?.prompt_tokens).toBeGreaterThan(0);
    const again = await sandbox.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: "hello sandbox" }] });
    expect(again.choices[0]?.message.content).toBe(plain.choices[0]?.message.content ?? "");
    const stream = await sandbox.chat.completions.create({
      model: "claude-sonnet-4-5",
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: "user", content: "hi" }],
    });
    let text = "";
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const c of stream) {
      text += c.choices[0]?.delta?.content ?? "";
      usage = c.usage ?? usage;
    }
    expect(text.length).toBeGreaterThan(10);
    expect(usage?.completion_tokens).toBeGreaterThan(0);
    const tools = await sandbox.chat.completions.create({
      model: "gpt-4o",
      messages: [{ role: "user", content: "weather?" }],
      tools: [{ type: "function", function: { name: "get_weather", parameters: { type: "object", properties: {} } } }],
    });
    expect(tools.choices[0]?.finish_reason).toBe("tool_calls");
    const emb = await sandbox.embeddings.create({ model: "text-embedding-3-small", input: "x", dimensions: 3 });
    expect(emb.data[0]?.embedding).toHaveLength(3);
    expect((await stack.mock.requests()).length).toBe(before);
    await Bun.sleep(200);
    const rows = (await usageRows()).filter((r) => r.provider === "sandbox");
    expect(rows.length).toBe(5);
    for (const r of rows) expect(r.costMicros).toBe(0);
  });

  test("models resolve as for live calls without any provider key: catalog, families, declared models, name/model", async () => {
    // This organization has only the self-hosted "lab" provider: no openai or anthropic key anywhere.
    const before = (await stack.mock.requests()).length;
    for (const model of ["gpt-4o", "gpt-5-something-newer", "claude-sonnet-4-5", "house-llm", "lab/anything"]) {
      const res = await sandbox.chat.completions.create({ model, messages: [{ role: "user", content: "x" }] });
      expect([model, res.object]).toEqual([model, "chat.completion"]);
    }
    expect((await stack.mock.requests()).length).toBe(before);
  });

  test("an unknown model is 404 model_not_found, as live", async () => {
    const err = await sandbox.chat.completions
      .create({ model: "no-such-model", messages: [{ role: "user", content: "x" }] })
      .catch((e) => e);
    expect(err.status).toBe(404);
    expect(err.error).toMatchObject({ code: "model_not_found", param: "model" });
    const liveErr = await live.chat.completions
      .create({ model: "no-such-model", messages: [{ role: "user", content: "x" }] })
      .catch((e) => e);
    expect(err.error).toEqual(liveErr.error);
  });

  test("on /v1/messages: an unknown model is 404 and a chat-format model 400, in the messages envelope", async () => {
    const call = (model: string) =>
      fetch(`${stack.gw.url}/v1/messages`, {
        method: "POST",
        headers: { "x-api-key": sandboxKey, "anthropic-version": "2023-06-01", "content-type": "application/json" },
        body: JSON.stringify({ model, max_tokens: 10, messages: [{ role: "user", content: "x" }] }),
      });
    const before = (await stack.mock.requests()).length;
    const unknown = await call("no-such-model");
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ type: "error", error: { type: "not_found_error" } });
    const chatModel = await call("gpt-4o");
    expect(chatModel.status).toBe(400);
    const body = (await chatModel.json()) as { error: { message: string } };
    expect(body).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
    expect(body.error.message).toContain("/v1/chat/completions");
    const declaredChat = await call("house-llm");
    expect(declaredChat.status).toBe(400);
    expect((await call("claude-sonnet-4-5")).status).toBe(200);
    expect((await stack.mock.requests()).length).toBe(before);
  });

  test("embeddings with a messages-vendor model are 400 wrong_endpoint", async () => {
    const err = await sandbox.embeddings.create({ model: "claude-sonnet-4-5", input: "x" }).catch((e) => e);
    expect(err.status).toBe(400);
    expect(err.error).toMatchObject({ code: "wrong_endpoint", param: "model" });
    const platform = await sandbox.embeddings.create({ model: "anthropic.claude-3-5-haiku-20241022-v1:0", input: "x" }).catch((e) => e);
    expect(platform.error?.code).toBe("wrong_endpoint");
  });

  test("a vendor in an unauthorized country is refused, 403 provider_blocked", async () => {
    const err = await sandbox.chat.completions
      .create({ model: "deepseek-chat", messages: [{ role: "user", content: "x" }] })
      .catch((e) => e);
    expect(err.status).toBe(403);
    expect(err.error.code).toBe("provider_blocked");
  });

  test("refused sandbox calls are not accounted as answered", async () => {
    await Bun.sleep(200);
    const rows = (await usageRows()).filter((r) => r.provider === "sandbox");
    expect(rows.every((r) => r.status === 200 && r.model !== "no-such-model" && r.model !== "deepseek-chat")).toBe(true);
  });

  test("validation errors are the same as live", async () => {
    const err = await sandbox.chat.completions.create({ model: "gpt-4o", messages: [], temperature: 5 } as never).catch((e) => e);
    expect(err.status).toBe(400);
  });
});
