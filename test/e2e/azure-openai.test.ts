/**
 * Azure OpenAI as the vendor answers it (the mock refuses as Azure does): a reasoning
 * deployment takes the output limit only as `max_completion_tokens`.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import OpenAI from "openai";
import type { InitResult, RunningMock } from "../support/gateway-process.ts";
import type { GatewayUnderTest } from "../support/in-process.ts";
import { startStack, stopStack } from "../support/stack.ts";

let gw: GatewayUnderTest;
let mock: RunningMock;
let org: InitResult;
let client: OpenAI;

beforeAll(async () => {
  ({ mock, org, gw } = await startStack());
  client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: org.apiKey, maxRetries: 0 });
  const created = await gw.op(org.apiKey, "provider.create", {
    provider: "azure-openai",
    name: "az",
    apiKey: "azure-key-1234567890",
    baseUrl: mock.url,
    deployments: { o3: "reasoning-o3" },
    scope: "organization",
  });
  expect(created.status).toBe(200);
});

afterAll(async () => {
  await stopStack({ gw, mock });
});

const lastRequest = async () => (await mock.requests()).at(-1)!;

test("a Responses call translated for a reasoning deployment sends its limit as max_completion_tokens", async () => {
  const res = await client.responses.create({ model: "az/o3", input: "hi", max_output_tokens: 64 });
  expect(res.status).toBe("completed");
  const seen = await lastRequest();
  expect(seen.path).toBe("/openai/deployments/reasoning-o3/chat/completions");
  expect(seen.body.max_completion_tokens).toBe(64);
  expect(seen.body).not.toHaveProperty("max_tokens");
});

test("a chat call's max_tokens reaches a reasoning deployment under the name it takes", async () => {
  const res = await client.chat.completions.create({ model: "az/o3", messages: [{ role: "user", content: "hi" }], max_tokens: 32 });
  expect(res.object).toBe("chat.completion");
  expect((await lastRequest()).body).toMatchObject({ max_completion_tokens: 32 });
  expect((await lastRequest()).body).not.toHaveProperty("max_tokens");
});

test("the mock refuses max_tokens for a reasoning deployment, as Azure does", async () => {
  const res = await fetch(`${mock.url}/openai/deployments/reasoning-o3/chat/completions?api-version=2024-10-21`, {
    method: "POST",
    headers: { "content-type": "application/json", "api-key": "k" },
    body: JSON.stringify({ messages: [{ role: "user", content: "hi" }], max_tokens: 5, model: "o3" }),
  });
  expect(res.status).toBe(400);
  expect(((await res.json()) as { error: unknown }).error).toMatchObject({ param: "max_tokens", code: "unsupported_parameter" });
});
