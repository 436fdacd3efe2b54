/**
 * The cloud platform's model failures as the mock answers them in the platform's own envelope
 * (`{"message"}`, the exception in `x-amzn-ErrorType`): a model that timed out
 * (`ModelTimeoutException`, 408) is the provider's timeout, a model that failed
 * (`ModelErrorException`, 424) the provider's error; both count against its health.
 */
import Anthropic from "@anthropic-ai/sdk";
import { beforeAll, expect, test } from "bun:test";
import { stackPerFile } from "../support/stack.ts";

let anthropic: Anthropic;

const stack = stackPerFile();

beforeAll(async () => {
  const created = await stack.gw.op(stack.org.apiKey, "provider.create", {
    provider: "bedrock",
    name: "platform",
    region: "us-east-1",
    apiKey: "bedrock-api-key-ABSKexample1234",
    baseUrl: stack.mock.url,
    scope: "organization",
  });
  expect(created.status).toBe(200);
  anthropic = new Anthropic({ baseURL: stack.gw.url, apiKey: stack.org.apiKey, maxRetries: 0 });
});

async function failure(model: string): Promise<{ status: number; error: { type: string; message: string } }> {
  try {
    await anthropic.messages.create({ model, max_tokens: 20, messages: [{ role: "user", content: "hi" }] });
  } catch (err) {
    if (err instanceof Anthropic.APIError) return { status: err.status as number, error: (err.error as any).error };
    throw err;
  }
  throw new Error("the call succeeded");
}

/** The configuration's consecutive failures, as ai.health reports them. */
async function consecutiveFailures(): Promise<number> {
  const h = await stack.gw.op(stack.org.apiKey, "ai.health", {});
  expect(h.status).toBe(200);
  return h.body.data.providers.find((p: { name: string }) => p.name === "platform")?.consecutiveFailures ?? 0;
}

test("ModelTimeoutException (408) is a 504 timeout, counted against the provider's health", async () => {
  const before = await consecutiveFailures();
  const { status, error } = await failure("platform/anthropic.fail-408");
  expect(status).toBe(504);
  expect(error.message).toContain("platform timed out (it answered HTTP 408): ModelTimeoutException: mock provider failure 408");
  expect(await consecutiveFailures()).toBe(before + 1);
});

test("ModelErrorException (424) is the provider's 502, counted against its health", async () => {
  const before = await consecutiveFailures();
  const { status, error } = await failure("platform/anthropic.fail-424");
  expect(status).toBe(502);
  expect(error.message).toContain("platform failed (HTTP 424): ModelErrorException: mock provider failure 424");
  expect(await consecutiveFailures()).toBe(before + 1);
});
