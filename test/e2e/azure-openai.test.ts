/**
 * Azure OpenAI as the vendor answers it (the mock refuses as Azure does): a reasoning
 * deployment takes the output limit only as `max_completion_tokens`.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import OpenAI from "openai";
import { stackPerFile } from "../support/stack.ts";

let client: OpenAI;

const stack = stackPerFile();

beforeAll(async () => {
  client = new OpenAI({ baseURL: `${stack.gw.url}/v1`, apiKey: stack.org.apiKey, maxRetries: 0 });
  const created = await stack.gw.op(stack.org.apiKey, "provider.create", {
    provider: "azure-openai",
    name: "az",
    apiKey: "azure-key-1234567890",
    baseUrl: stack.mock.url,
    deployments: { o3: "reasoning-o3" },
    scope: "organization",
  });
  expect(created.status).toBe(200);
});

const lastRequest = async () => (await stack.mock.requests()).at(-1)!;

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
  const res = await fetch(`${stack.mock.url}/openai/deployments/reasoning-o3/chat/completions?api-version=2024-10-21`, {
    method: "POST",
    headers: { "content-type": "application/json", "api-key": "k" },
    body: JSON.stringify({ messages: [{ role: "user", content: "hi" }], max_tokens: 5, model: "o3" }),
  });
  expect(res.status).toBe(400);
  expect(((await res.json()) as { error: unknown }).error).toMatchObject({ param: "max_tokens", code: "unsupported_parameter" });
});

describe("the v1 API", () => {
  const KEY = "azure-v1-key-1234567890";
  beforeAll(async () => {
    for (const [name, settings] of [
      ["v1", { baseUrl: stack.mock.url, apiVersion: "v1" }],
      ["portal", { baseUrl: `${stack.mock.url}/openai/v1` }],
    ] as const) {
      const created = await stack.gw.op(stack.org.apiKey, "provider.create", {
        provider: "azure-openai",
        name,
        apiKey: KEY,
        deployments: { "gpt-4o": "deploy-gpt-4o" },
        scope: "organization",
        ...settings,
      });
      expect(created.status).toBe(200);
    }
  });

  test("apiVersion v1, or a base URL ending in /openai/v1: /openai/v1/chat/completions, no api-version, the deployment in the body", async () => {
    for (const name of ["v1", "portal"]) {
      const res = await client.chat.completions.create({
        model: `${name}/gpt-4o`,
        messages: [{ role: "user", content: "hi" }],
        max_tokens: 20,
      });
      expect(res.model).toBe("gpt-4o");
      const seen = await lastRequest();
      expect(seen.url).toBe("/openai/v1/chat/completions");
      expect(seen.headers["api-key"]).toBe(KEY);
      expect(seen.authorization).toBeNull();
      expect(seen.body).toMatchObject({ model: "deploy-gpt-4o", max_completion_tokens: 20 });
    }
  });

  test("embeddings go to /openai/v1/embeddings, a model without a deployment entry named as its own deployment", async () => {
    const res = await client.embeddings.create({ model: "v1/text-embedding-3-small", input: "hello" });
    expect(res.data).toHaveLength(1);
    const seen = await lastRequest();
    expect(seen.url).toBe("/openai/v1/embeddings");
    expect(seen.body.model).toBe("text-embedding-3-small");
  });

  test("the Responses API is served there as written: stored state reaches Azure instead of being refused", async () => {
    const first = await client.responses.create({ model: "v1/gpt-4o", input: "Remember the word pelican." });
    expect((await lastRequest()).url).toBe("/openai/v1/responses");
    expect((await lastRequest()).body.model).toBe("deploy-gpt-4o");
    const second = await client.responses.create({ model: "v1/gpt-4o", input: "Which word?", previous_response_id: first.id });
    expect(second.status).toBe("completed");
    expect((await lastRequest()).body).toMatchObject({ model: "deploy-gpt-4o", previous_response_id: first.id });
  });

  test("the mock takes v1 calls without api-version but not without the key, as Azure does", async () => {
    const call = (headers: Record<string, string>) =>
      fetch(`${stack.mock.url}/openai/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({ model: "deploy-gpt-4o", messages: [{ role: "user", content: "hi" }] }),
      });
    expect((await call({ "api-key": "k" })).status).toBe(200);
    expect((await call({})).status).toBe(401);
  });
});
