/**
 * A provider that says it is unavailable (503) or overloaded (529), or cannot be reached,
 * is 503 `provider_unavailable` on every surface, in that surface's envelope, naming the
 * provider and what it answered, never its key; a provider's other 5xx stays 502.
 * Through the official clients against the running gateway and the mock provider.
 */
import { describe, expect, test } from "bun:test";
import OpenAI from "openai";
import Anthropic from "@anthropic-ai/sdk";
import { clientStackPerFile } from "../support/client-stack.ts";

const OPENAI_KEY = "sk-openai-unavailable-test-123456";
const VENDOR_KEY = "sk-ant-api03-unavailable-test-0000";
const stack = clientStackPerFile({
  openai: { apiKey: OPENAI_KEY },
  anthropic: { apiKey: VENDOR_KEY },
  providers: [
    { provider: "custom", name: "gone", apiKey: "k-123456789", baseUrl: "http://127.0.0.1:9/v1", country: "US", models: ["gone-model"] },
  ],
});

const hi = [{ role: "user" as const, content: "hi" }];

function expectUnavailable(message: string, provider: string, answered: string, key: string) {
  expect(message).toContain(provider);
  expect(message).toContain(answered);
  expect(message).not.toContain(key);
}

describe("503 provider_unavailable", () => {
  test("chat completions: 503 and 529 name the provider and its answer", async () => {
    for (const status of [503, 529]) {
      const err = await stack.openai.chat.completions.create({ model: `openai/fail-${status}`, messages: hi }).catch((e) => e);
      expect(err).toBeInstanceOf(OpenAI.APIError);
      expect(err.status).toBe(503);
      expect(err.error).toMatchObject({ code: "provider_unavailable", type: "server_error" });
      expectUnavailable(err.error.message, "openai", `HTTP ${status}`, OPENAI_KEY);
    }
  });

  test("messages: an overloaded vendor is 503 in the messages envelope", async () => {
    const err = await stack.anthropic.messages.create({ model: "anthropic/fail-529", max_tokens: 10, messages: hi }).catch((e) => e);
    expect(err).toBeInstanceOf(Anthropic.APIError);
    expect(err.status).toBe(503);
    expect(err.error).toMatchObject({ type: "error", error: { type: "api_error", code: "provider_unavailable" } });
    expectUnavailable(err.error.error.message, "anthropic", "HTTP 529", VENDOR_KEY);
  });

  test("responses and embeddings", async () => {
    const responses = await stack.openai.responses.create({ model: "openai/fail-503", input: "hi" }).catch((e) => e);
    expect(responses.status).toBe(503);
    expect(responses.error.code).toBe("provider_unavailable");
    expectUnavailable(responses.error.message, "openai", "HTTP 503", OPENAI_KEY);
    const embeddings = await stack.openai.embeddings.create({ model: "openai/fail-503", input: "hi" }).catch((e) => e);
    expect(embeddings.status).toBe(503);
    expect(embeddings.error.code).toBe("provider_unavailable");
    expectUnavailable(embeddings.error.message, "openai", "HTTP 503", OPENAI_KEY);
  });

  test("ai.proxy, flat and by endpoint, in the gateway envelope", async () => {
    const flat = await stack.gw.op(stack.org.apiKey, "ai.proxy", { provider: "openai", model: "fail-503", messages: hi });
    const byEndpoint = await stack.gw.op(stack.org.apiKey, "ai.proxy", {
      provider: "anthropic",
      endpoint: "messages",
      body: { model: "fail-529", max_tokens: 10, messages: hi },
    });
    for (const [r, provider, answered] of [
      [flat, "openai", "HTTP 503"],
      [byEndpoint, "anthropic", "HTTP 529"],
    ] as const) {
      expect(r.status).toBe(503);
      expect(r.body).toMatchObject({ success: false, code: "provider_unavailable" });
      expectUnavailable(r.body.error, provider, answered, provider === "openai" ? OPENAI_KEY : VENDOR_KEY);
    }
  });

  test("a refused connection is 503 naming the provider", async () => {
    const err = await stack.openai.chat.completions.create({ model: "gone-model", messages: hi }).catch((e) => e);
    expect(err.status).toBe(503);
    expect(err.error.code).toBe("provider_unavailable");
    expect(err.error.message).toContain("gone");
  });
});

test("a provider's other 5xx (a wrong answer) stays 502 provider_error", async () => {
  for (const status of [500, 502]) {
    const err = await stack.openai.chat.completions.create({ model: `openai/fail-${status}`, messages: hi }).catch((e) => e);
    expect(err.status).toBe(502);
    expect(err.error.code).toBe("provider_error");
  }
});
