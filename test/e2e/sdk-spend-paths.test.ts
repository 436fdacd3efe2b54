/**
 * What the official clients' less common spend paths cost: a stream helper's `abort()`
 * mid-stream (Responses native and translated, messages, chat translated to the messages
 * format) and the SDK's `timeout` on a plain call are charged, `n` choices are held
 * against a cap as that many answers, and a spent cap tells the Anthropic SDK not to
 * retry. (A chat stream left after its first chunk, and the OpenAI SDK against a spent
 * cap: aborted-streams.test.ts and cap-no-retry.test.ts.)
 */
import Anthropic from "@anthropic-ai/sdk";
import { expect, test } from "bun:test";
import OpenAI from "openai";
import { clientStackPerFile } from "../support/client-stack.ts";
import { usageRowOf } from "../support/usage-rows.ts";

// Answers spread over seconds: every client below leaves long before the provider's usage.
const s = clientStackPerFile({ mockArgs: ["--latency-ms", "3000", "--stream-chunks", "40"], env: { GW_FLUSH_INTERVAL_MS: "50" } });
const PROMPT = "Tell me a long story about a lighthouse keeper and the sea. ".repeat(20);
const openai = () => new OpenAI({ baseURL: `${s.gw.url}/v1`, apiKey: s.org.apiKey, maxRetries: 0 });
const anthropic = () => new Anthropic({ baseURL: s.gw.url, apiKey: s.org.apiKey, maxRetries: 0 });

/** The request's id, chosen by the test and sent as `x-request-id`, which the gateway keeps. */
const tagged = (id: string) => ({ headers: { "x-request-id": id } });

async function expectCharged(requestId: string, code: string) {
  const row = await usageRowOf(s.gw.dataDir, s.org.orgId, requestId);
  expect(row).toMatchObject({ status: 499, errorCode: code });
  expect(row.promptTokens).toBeGreaterThan(100);
  expect(row.costMicros).toBeGreaterThan(0);
}

/** Runs a helper stream until it aborts itself, and checks the SDK saw its own abort. */
async function abortedBy(done: Promise<unknown>) {
  const err = await done.then(
    () => null,
    (e) => e,
  );
  expect(err?.constructor?.name).toMatch(/APIUserAbortError/);
}

test("responses.stream() aborted at its first delta is charged, natively and translated", async () => {
  for (const [model, id] of [
    ["gpt-4o", "abort-responses-native"],
    ["claude-haiku-4-5", "abort-responses-translated"],
  ] as const) {
    const stream = openai().responses.stream({ model, input: PROMPT }, tagged(id));
    stream.on("response.output_text.delta", () => stream.abort());
    await abortedBy(stream.done());
    await expectCharged(id, "stream_interrupted");
  }
});

test("messages.stream() aborted at its first text, and a chat stream translated to the messages format, are charged", async () => {
  const messages = anthropic().messages.stream(
    { model: "claude-haiku-4-5", max_tokens: 1000, messages: [{ role: "user", content: PROMPT }] },
    tagged("abort-messages"),
  );
  messages.on("text", () => messages.abort());
  await abortedBy(messages.done());
  await expectCharged("abort-messages", "stream_interrupted");

  const chat = openai().chat.completions.stream(
    { model: "claude-haiku-4-5", messages: [{ role: "user", content: PROMPT }] },
    tagged("abort-chat-translated"),
  );
  chat.on("content.delta", () => chat.abort());
  await abortedBy(chat.done());
  await expectCharged("abort-chat-translated", "stream_interrupted");
});

test("the SDK's timeout on a plain call is charged for the prompt the provider was sent", async () => {
  const o = await openai()
    .chat.completions.create(
      { model: "gpt-4o", messages: [{ role: "user", content: PROMPT }] },
      { ...tagged("timeout-chat"), timeout: 300 },
    )
    .catch((e) => e);
  expect(o).toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
  await expectCharged("timeout-chat", "client_closed_request");
  const a = await anthropic()
    .messages.create(
      { model: "claude-haiku-4-5", max_tokens: 1000, messages: [{ role: "user", content: PROMPT }] },
      { ...tagged("timeout-messages"), timeout: 300 },
    )
    .catch((e) => e);
  expect(a).toBeInstanceOf(Anthropic.APIConnectionTimeoutError);
  await expectCharged("timeout-messages", "client_closed_request");
});

test("a spent cap: the Anthropic SDK, retries left at its default, sends exactly one request", async () => {
  const created = await s.gw.op(s.org.apiKey, "org.service-account.create", { serviceAccountName: "capped-anthropic", spendCapCents: 0 });
  const seen: Response[] = [];
  const client = new Anthropic({
    baseURL: s.gw.url,
    apiKey: created.body.data.apiKey.key,
    fetch: async (url, init) => {
      const res = await fetch(url, init);
      seen.push(res);
      return res;
    },
  });
  const err = await client.messages
    .create({ model: "claude-haiku-4-5", max_tokens: 16, messages: [{ role: "user", content: "x" }] })
    .catch((e) => e);
  expect(err).toBeInstanceOf(Anthropic.RateLimitError);
  expect(err.error).toMatchObject({ type: "error", error: { type: "rate_limit_error", code: "spend_cap_exceeded" } });
  expect(seen).toHaveLength(1);
  expect(seen[0]?.headers.get("x-should-retry")).toBe("false");
});

test("n choices are held against a cap as n answers: n: 4 with a limit one answer fits under is refused", async () => {
  // gpt-4o writes 1,000 tokens for 1 cent: a 2-cent cap holds one such answer, not four.
  const created = await s.gw.op(s.org.apiKey, "org.service-account.create", { serviceAccountName: "capped-choices", spendCapCents: 2 });
  const client = new OpenAI({ baseURL: `${s.gw.url}/v1`, apiKey: created.body.data.apiKey.key, maxRetries: 0 });
  const asked = { model: "gpt-4o", messages: [{ role: "user" as const, content: "hi" }], max_tokens: 1000 };
  const four = await client.chat.completions.create({ ...asked, n: 4 }).catch((e) => e);
  expect(four).toBeInstanceOf(OpenAI.RateLimitError);
  expect(four.error.code).toBe("spend_cap_exceeded");
  const one = await client.chat.completions.create({ ...asked, n: 1 });
  expect(one.choices).toHaveLength(1);
});

test("n choices with no limit given are held as n answers at the model's own most: n: 2 is refused where one fits", async () => {
  // gpt-4o may write 16,384 tokens, 16.4 cents at $10 a million: a 20-cent cap holds one such answer, not two.
  const created = await s.gw.op(s.org.apiKey, "org.service-account.create", {
    serviceAccountName: "capped-open-choices",
    spendCapCents: 20,
  });
  const client = new OpenAI({ baseURL: `${s.gw.url}/v1`, apiKey: created.body.data.apiKey.key, maxRetries: 0 });
  const asked = { model: "gpt-4o", messages: [{ role: "user" as const, content: "hi" }] };
  const two = await client.chat.completions.create({ ...asked, n: 2 }).catch((e) => e);
  expect(two).toBeInstanceOf(OpenAI.RateLimitError);
  expect(two.error.code).toBe("spend_cap_exceeded");
  const one = await client.chat.completions.create(asked);
  expect(one.choices).toHaveLength(1);
});

test("a messages call's web searches are held against a cap before it is sent: max_uses searches at $10 per 1,000", async () => {
  // Ten searches are 10 cents, over a 5-cent cap; two (2 cents and a few tokens) fit.
  const created = await s.gw.op(s.org.apiKey, "org.service-account.create", { serviceAccountName: "capped-searches", spendCapCents: 5 });
  const client = new Anthropic({ baseURL: s.gw.url, apiKey: created.body.data.apiKey.key, maxRetries: 0 });
  const asked = (maxUses: number) => ({
    model: "claude-haiku-4-5",
    max_tokens: 16,
    messages: [{ role: "user" as const, content: "What is the tide at Brest today?" }],
    tools: [{ type: "web_search_20250305" as const, name: "web_search" as const, max_uses: maxUses }],
  });
  const ten = await client.messages.create(asked(10)).catch((e) => e);
  expect(ten).toBeInstanceOf(Anthropic.RateLimitError);
  expect(ten.error.error.code).toBe("spend_cap_exceeded");
  const two = await client.messages.create(asked(2));
  expect(two.type).toBe("message");
});
