/**
 * The model list and one model, with both official clients: openai's models.retrieve
 * in the OpenAI shape, @anthropic-ai/sdk's models.list (paginated) and models.retrieve
 * in the Anthropic shape, and unknown or unauthorized models as 404 in each envelope.
 */
import Anthropic from "@anthropic-ai/sdk";
import { beforeAll, expect, test } from "bun:test";
import OpenAI from "openai";
import { ANTHROPIC_AT_MOCK, OPENAI_AT_MOCK } from "../support/provider-configs.ts";
import { stackPerFile } from "../support/stack.ts";

let openai: OpenAI;
let anthropic: Anthropic;

const stack = stackPerFile({
  providers: [
    { ...ANTHROPIC_AT_MOCK, apiKey: "sk-ant-vendor-test-123456" },
    { ...OPENAI_AT_MOCK, apiKey: "sk-openai-test-123456" },
  ],
});

beforeAll(async () => {
  openai = new OpenAI({ baseURL: `${stack.gw.url}/v1`, apiKey: stack.org.apiKey, maxRetries: 0 });
  anthropic = new Anthropic({ baseURL: stack.gw.url, apiKey: stack.org.apiKey, maxRetries: 0 });
});

test("openai models.retrieve: one model in the OpenAI shape", async () => {
  const m = await openai.models.retrieve("gpt-4o");
  expect(m).toMatchObject({ id: "gpt-4o", object: "model" });
  expect(typeof m.created).toBe("number");
});

test("openai: an unknown model is 404 in the OpenAI envelope", async () => {
  const err = await openai.models.retrieve("no-such-model").catch((e) => e);
  expect(err).toBeInstanceOf(OpenAI.NotFoundError);
  expect(err.error).toMatchObject({ code: "model_not_found", type: "not_found_error", param: "model" });
});

test("a model of a provider the organization has not configured is 404 too", async () => {
  const err = await openai.models.retrieve("mistral-large-latest").catch((e) => e);
  expect(err.status).toBe(404);
});

test("@anthropic-ai/sdk models.list: the Anthropic shape, every page", async () => {
  const plain = (await (await fetch(`${stack.gw.url}/v1/models`, { headers: { authorization: `Bearer ${stack.org.apiKey}` } })).json()) as {
    data: { id: string }[];
  };
  const first = await anthropic.models.list({ limit: 3 });
  expect(first.data).toHaveLength(3);
  for (const m of first.data) {
    expect(m.type).toBe("model");
    expect(typeof m.display_name).toBe("string");
    expect(Number.isNaN(Date.parse(m.created_at))).toBe(false);
  }
  expect(first.has_more).toBe(true);
  expect(first.first_id).toBe(first.data[0]!.id);
  expect(first.last_id).toBe(first.data[2]!.id);
  const all: string[] = [];
  for await (const m of anthropic.models.list({ limit: 3 })) all.push(m.id);
  expect(all).toEqual(plain.data.map((m) => m.id));
  expect(all).toContain("claude-sonnet-4-5");
});

test("@anthropic-ai/sdk models.retrieve, and a 404 in the messages envelope", async () => {
  const m = await anthropic.models.retrieve("claude-sonnet-4-5");
  expect(m).toMatchObject({ type: "model", id: "claude-sonnet-4-5", display_name: "claude-sonnet-4-5" });
  const err = await anthropic.models.retrieve("no-such-model").catch((e) => e);
  expect(err).toBeInstanceOf(Anthropic.NotFoundError);
  expect(err.error).toMatchObject({ type: "error", error: { type: "not_found_error" } });
});

test("pagination arguments out of range are 400s that say the range", async () => {
  const res = await fetch(`${stack.gw.url}/v1/models?limit=0`, {
    headers: { "x-api-key": stack.org.apiKey, "anthropic-version": "2023-06-01" },
  });
  expect(res.status).toBe(400);
  const body = (await res.json()) as any;
  expect(body.error.message).toBe("limit must be a whole number from 1 to 1000");
  const cursor = await fetch(`${stack.gw.url}/v1/models?after_id=nope`, {
    headers: { "x-api-key": stack.org.apiKey, "anthropic-version": "2023-06-01" },
  });
  expect(cursor.status).toBe(400);
});

test("an id with a slash (name/model form) is retrieved when percent-encoded, as the clients send it", async () => {
  const created = await stack.gw.op(stack.org.apiKey, "provider.create", {
    provider: "custom",
    name: "lab",
    baseUrl: `${stack.mock.url}/v1`,
    apiKey: "lab-key-123456",
    country: "US",
    models: ["team/llama3:8b"],
    scope: "organization",
  });
  expect(created.status).toBe(200);
  const m = await openai.models.retrieve("team/llama3:8b");
  expect(m.id).toBe("team/llama3:8b");
});

test("a bad key on the models routes answers in the envelope of the client that sent it", async () => {
  const badAnthropic = new Anthropic({ baseURL: stack.gw.url, apiKey: "gw_live_not-a-key", maxRetries: 0 });
  const a = await badAnthropic.models.list().catch((e) => e);
  expect(a).toBeInstanceOf(Anthropic.AuthenticationError);
  expect(a.error).toMatchObject({ type: "error", error: { type: "authentication_error" } });
  const badOpenai = new OpenAI({ baseURL: `${stack.gw.url}/v1`, apiKey: "gw_live_not-a-key", maxRetries: 0 });
  const o = await badOpenai.models.retrieve("gpt-4o").catch((e) => e);
  expect(o).toBeInstanceOf(OpenAI.AuthenticationError);
  expect(o.error).toMatchObject({ type: "authentication_error", code: "unauthorized" });
});
