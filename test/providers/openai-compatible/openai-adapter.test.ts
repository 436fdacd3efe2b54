/** The chat-family adapter sends a call's output limit under the name its kind's chat API takes. */
import { expect, test } from "bun:test";
import { openAiCompatibleAdapter } from "../../../src/providers/openai-compatible/openai-adapter.ts";
import { PROVIDER_KINDS_INFO, type ProviderKind } from "../../../src/providers/catalog/provider-kinds.ts";
import { targetFor } from "../../../src/providers/target.ts";

const target = (kind: ProviderKind) =>
  targetFor({
    info: PROVIDER_KINDS_INFO[kind],
    baseUrl: "https://provider.example/v1",
    credentials: { type: "api-key", apiKey: "k" },
    model: "m",
    catalogModel: undefined,
  });
const sent = (kind: ProviderKind, limits: Record<string, unknown>) =>
  JSON.parse(String(openAiCompatibleAdapter.request(target(kind), { model: "m", messages: [], ...limits }).body)) as Record<
    string,
    unknown
  >;

test("OpenAI gets max_tokens as max_completion_tokens, which its reasoning models require", () => {
  const body = sent("openai", { max_tokens: 50 });
  expect(body.max_completion_tokens).toBe(50);
  expect(body).not.toHaveProperty("max_tokens");
});

test("a vendor that documents max_tokens gets the newer name as max_tokens", () => {
  for (const kind of ["mistral", "deepseek"] as const) {
    const body = sent(kind, { max_completion_tokens: 70 });
    expect(body.max_tokens).toBe(70);
    expect(body).not.toHaveProperty("max_completion_tokens");
  }
});

test("with both names written, the one the kind takes keeps its value and the other is dropped", () => {
  expect(sent("openai", { max_tokens: 10, max_completion_tokens: 20 })).toMatchObject({ max_completion_tokens: 20 });
  expect(sent("openai", { max_tokens: 10, max_completion_tokens: 20 })).not.toHaveProperty("max_tokens");
  expect(sent("mistral", { max_tokens: 10, max_completion_tokens: 20 })).toMatchObject({ max_tokens: 10 });
});

test("the caller's own server gets the name the caller wrote: it may be Ollama (max_tokens) or a proxy to OpenAI", () => {
  for (const kind of ["self-hosted", "custom"] as const) {
    expect(sent(kind, { max_tokens: 5 })).toEqual({ model: "m", messages: [], max_tokens: 5 });
    expect(sent(kind, { max_completion_tokens: 5 })).toEqual({ model: "m", messages: [], max_completion_tokens: 5 });
  }
});

test("a call without a limit is sent without one", () => {
  const body = sent("openai", {});
  expect(body).not.toHaveProperty("max_tokens");
  expect(body).not.toHaveProperty("max_completion_tokens");
});
