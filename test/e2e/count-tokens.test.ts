/**
 * `POST /v1/messages/count_tokens` with the official @anthropic-ai/sdk: forwarded to
 * the vendor (the mock counts), counted locally with an estimate header for the cloud
 * platform and sandbox keys, scanned like a call, never charged.
 */
import Anthropic from "@anthropic-ai/sdk";
import { beforeAll, expect, test } from "bun:test";
import { withStore } from "../support/store-access.ts";
import { ANTHROPIC_AT_MOCK, OPENAI_AT_MOCK } from "../support/provider-configs.ts";
import { stackPerFile } from "../support/stack.ts";

let anthropic: Anthropic;
const VENDOR_KEY = "sk-ant-api03-vendor-key-for-count-0000";
const LEAKED_KEY = "ghp_Q7vLm2Rk9XwTz4Hn8Bc3Pd6Yf1Gs5Ja0KeWx";

const stack = stackPerFile({
  env: { GW_FLUSH_INTERVAL_MS: "50" },
  providers: [
    { ...ANTHROPIC_AT_MOCK, apiKey: VENDOR_KEY },
    { ...OPENAI_AT_MOCK, apiKey: "sk-openai-test-123456" },
  ],
});

beforeAll(async () => {
  anthropic = new Anthropic({ baseURL: stack.gw.url, apiKey: stack.org.apiKey, maxRetries: 0 });
});

const request = {
  model: "claude-sonnet-4-5",
  system: "You are a weather bot.",
  messages: [{ role: "user" as const, content: "What is the weather in Paris today?" }],
  tools: [
    {
      name: "get_weather",
      description: "Weather for a city",
      input_schema: { type: "object" as const, properties: { city: { type: "string" } } },
    },
  ],
};

test("forwarded to the vendor with its key, the vendor's count returned, nothing charged", async () => {
  const { data, response } = await anthropic.messages.countTokens(request).withResponse();
  expect(data.input_tokens).toBeGreaterThan(10);
  expect(response.headers.get("x-gw-token-count")).toBeNull();
  expect(response.headers.get("x-gw-provider")).toBe("anthropic/claude-sonnet-4-5");
  const seen = (await stack.mock.requests()).at(-1)!;
  expect(seen).toMatchObject({ path: "/v1/messages/count_tokens", apiKey: VENDOR_KEY });
  expect(seen.body.tools[0].name).toBe("get_weather");
  expect(JSON.stringify(seen.headers)).not.toContain(stack.org.apiKey);
  await Bun.sleep(200);
  expect(await withStore(stack.gw.dataDir, (s) => s.listUsageEvents(stack.org.orgId))).toEqual([]);
});

test("the cloud platform has no count endpoint here: counted locally and marked as an estimate", async () => {
  const created = await stack.gw.op(stack.org.apiKey, "provider.create", {
    provider: "bedrock",
    region: "us-east-1",
    accessKeyId: "AKIAIOSFODNN7EXAMPLE",
    secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    baseUrl: stack.mock.url,
    scope: "organization",
  });
  expect(created.status).toBe(200);
  const before = (await stack.mock.requests()).length;
  const viaVendor = await anthropic.messages.countTokens(request);
  const { data, response } = await anthropic.messages.countTokens({ ...request, model: "anthropic.claude-sonnet-4-5" }).withResponse();
  expect(response.headers.get("x-gw-token-count")).toBe("estimated");
  // The gateway's tokenizer is the mock's, so the estimate and the vendor's count agree here.
  expect(data.input_tokens).toBe(viaVendor.input_tokens);
  expect((await stack.mock.requests()).length).toBe(before + 1);
  await stack.gw.op(stack.org.apiKey, "provider.delete", { providerId: created.body.data.provider.id });
});

test("a sandbox key is counted locally and never reaches a provider", async () => {
  const created = await stack.gw.op(stack.org.apiKey, "org.service-account.create", {
    serviceAccountName: "count-sandbox",
    keyType: "test",
  });
  const sandbox = new Anthropic({ baseURL: stack.gw.url, apiKey: created.body.data.apiKey.key, maxRetries: 0 });
  const before = (await stack.mock.requests()).length;
  const { data, response } = await sandbox.messages.countTokens(request).withResponse();
  expect(data.input_tokens).toBeGreaterThan(10);
  expect(response.headers.get("x-gw-token-count")).toBe("estimated");
  expect((await stack.mock.requests()).length).toBe(before);
});

test("a blocked prompt is a 400 in the messages envelope and never forwarded", async () => {
  const before = (await stack.mock.requests()).length;
  const err = await anthropic.messages
    .countTokens({ model: "claude-sonnet-4-5", messages: [{ role: "user", content: `why does ${LEAKED_KEY} fail?` }] })
    .catch((e) => e);
  expect(err).toBeInstanceOf(Anthropic.BadRequestError);
  expect(err.error).toMatchObject({ type: "error", error: { type: "invalid_request_error", code: "security_violation" } });
  expect(JSON.stringify(err.error)).not.toContain(LEAKED_KEY);
  expect((await stack.mock.requests()).length).toBe(before);
});

test("bad requests name the field; a chat-completions model is refused; count calls are rate-limited like others", async () => {
  const bad = await anthropic.messages.countTokens({ model: "claude-sonnet-4-5", messages: [] }).catch((e) => e);
  expect(bad.status).toBe(400);
  expect(bad.error.error.message).toContain("messages");
  const chatModel = await anthropic.messages.countTokens({ model: "gpt-4o", messages: [{ role: "user", content: "x" }] }).catch((e) => e);
  expect(chatModel.status).toBe(400);
  expect(chatModel.error.error.message).toContain("chat-completions");
  const res = await fetch(`${stack.gw.url}/v1/messages/count_tokens`, {
    method: "POST",
    headers: { "x-api-key": stack.org.apiKey, "anthropic-version": "2023-06-01", "content-type": "application/json" },
    body: JSON.stringify(request),
  });
  expect(res.status).toBe(200);
  expect(Number(res.headers.get("x-ratelimit-remaining"))).toBeLessThan(Number(res.headers.get("x-ratelimit-limit")));
});
