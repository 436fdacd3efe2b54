/**
 * Prompt-cache tokens are priced apart, through the whole gateway with the official
 * clients: the mock provider reports cache reads and writes when the end user is
 * `cache-r<reads>-w<writes>[-h<1-hour writes>]` (src/mock-provider/cache-steer.ts), and
 * each usage row costs its uncached prompt, reads, writes and answer at their own
 * prices, for whole answers and streams, native and translated. The prices below are
 * written out from the vendors' pages (and this file's GW_CATALOG), not read from the
 * catalog, so a wrong catalog entry fails here.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import type { UsageEvent } from "../../src/domain/types.ts";
import { catalogPerFile } from "../support/catalog-file.ts";
import { ANTHROPIC_AT_MOCK, BEDROCK_AT_MOCK, OPENAI_AT_MOCK } from "../support/provider-configs.ts";
import { stackPerFile } from "../support/stack.ts";
import { usageRowOf } from "../support/usage-rows.ts";

/** USD per million tokens (micro-dollars per token): input, output, cache read, 5-minute write, 1-hour write. */
interface Prices {
  input: number;
  output: number;
  read: number;
  write: number;
  writeLong: number;
}
const HAIKU: Prices = { input: 1, output: 5, read: 0.1, write: 1.25, writeLong: 2 };
const SONNET: Prices = { input: 3, output: 15, read: 0.3, write: 3.75, writeLong: 6 };
const GPT_4O: Prices = { input: 2.5, output: 10, read: 1.25, write: 2.5, writeLong: 2.5 };
/** An operator's model without cache prices: every cache token at its input price. */
const PLAIN: Prices = { input: 2, output: 4, read: 2, write: 2, writeLong: 2 };
/** An operator's model with cache prices of its own (GW_CATALOG). */
const OPERATOR_CACHED: Prices = { input: 2, output: 4, read: 0.2, write: 2.5, writeLong: 2.5 };

const BEDROCK_SONNET = "anthropic.claude-sonnet-4-5-20250929-v1:0";
const READS = 2000;
const WRITES = 1000;
const LONG_WRITES = 400;
/** The end user that steers the mock to report the cache counts above. */
const CACHED_USER = `cache-r${READS}-w${WRITES}-h${LONG_WRITES}`;
/** The chat format has no member for the 1-hour writes: OpenAI-family steering reports none. */
const CHAT_CACHED_USER = `cache-r${READS}-w${WRITES}`;

let openai: OpenAI;
let anthropic: Anthropic;
const catalogFile = catalogPerFile({
  models: [
    { id: "gpt-plain-operator", provider: "openai", inputPerMTok: PLAIN.input, outputPerMTok: PLAIN.output },
    {
      id: "gpt-cached-operator",
      provider: "openai",
      inputPerMTok: OPERATOR_CACHED.input,
      outputPerMTok: OPERATOR_CACHED.output,
      cacheReadPerMTok: OPERATOR_CACHED.read,
      cacheWritePerMTok: OPERATOR_CACHED.write,
    },
  ],
});

const stack = stackPerFile({
  env: { GW_CATALOG: catalogFile, GW_FLUSH_INTERVAL_MS: "20" },
  providers: [
    { ...OPENAI_AT_MOCK, apiKey: "sk-openai-cache-test-123456" },
    { ...ANTHROPIC_AT_MOCK, apiKey: "sk-ant-api03-cache-tests-0000" },
    BEDROCK_AT_MOCK,
  ],
});

beforeAll(async () => {
  openai = new OpenAI({ baseURL: `${stack.gw.url}/v1`, apiKey: stack.org.apiKey, maxRetries: 0 });
  anthropic = new Anthropic({ baseURL: stack.gw.url, apiKey: stack.org.apiKey, maxRetries: 0 });
});

const rowOf = (requestId: string | null) => usageRowOf(stack.gw.dataDir, stack.org.orgId, requestId);

/** What the row must cost: each part of the prompt at its price, rounded up once. */
function expectedMicros(p: Prices, row: UsageEvent, reads: number, writes: number, longWrites: number): number {
  const uncached = row.promptTokens - reads - writes;
  return Math.ceil(
    uncached * p.input + reads * p.read + (writes - longWrites) * p.write + longWrites * p.writeLong + row.completionTokens * p.output,
  );
}

/** The row holds the cache tokens in its prompt count and costs them at their prices. */
function expectPriced(row: UsageEvent, p: Prices, reads: number, writes: number, longWrites: number) {
  expect(row.status).toBe(200);
  expect(row.promptTokens).toBeGreaterThan(reads + writes);
  expect(row.completionTokens).toBeGreaterThan(0);
  expect(row.costMicros).toBe(expectedMicros(p, row, reads, writes, longWrites));
}

const question = "Summarize the cached handbook in a sentence.";

describe("a messages-format model (Anthropic): reads at 0.1x, 5-minute writes at 1.25x, 1-hour writes at 2x", () => {
  const body = {
    model: "claude-haiku-4-5",
    max_tokens: 100,
    metadata: { user_id: CACHED_USER },
    messages: [{ role: "user" as const, content: question }],
  };

  test("a whole answer", async () => {
    const { data, response } = await anthropic.messages.create(body).withResponse();
    expect(data.usage.cache_read_input_tokens).toBe(READS);
    const row = await rowOf(response.headers.get("x-request-id"));
    expectPriced(row, HAIKU, READS, WRITES, LONG_WRITES);
    // Before: every prompt token at the input price, 10x the reads' price.
    expect(row.costMicros).toBeLessThan(row.promptTokens * HAIKU.input + row.completionTokens * HAIKU.output);
  });

  test("a stream", async () => {
    const { data, response } = await anthropic.messages.create({ ...body, stream: true }).withResponse();
    for await (const _ of data);
    expectPriced(await rowOf(response.headers.get("x-request-id")), HAIKU, READS, WRITES, LONG_WRITES);
  });

  test("translated for a chat caller, whole: the caller sees the reads and writes, the row keeps the 1-hour writes apart", async () => {
    const { data, response } = await openai.chat.completions
      .create({ model: "claude-haiku-4-5", user: CACHED_USER, messages: [{ role: "user", content: question }] })
      .withResponse();
    expect(data.usage?.prompt_tokens_details).toMatchObject({ cached_tokens: READS, cache_write_tokens: WRITES });
    expectPriced(await rowOf(response.headers.get("x-request-id")), HAIKU, READS, WRITES, LONG_WRITES);
  });

  test("translated for a chat caller, streamed: the 1-hour writes are priced as such though chat's usage cannot name them", async () => {
    const { data, response } = await openai.chat.completions
      .create({ model: "claude-haiku-4-5", user: CACHED_USER, stream: true, messages: [{ role: "user", content: question }] })
      .withResponse();
    for await (const _ of data);
    expectPriced(await rowOf(response.headers.get("x-request-id")), HAIKU, READS, WRITES, LONG_WRITES);
  });

  test("a Responses caller, translated through chat: the caller sees the reads, the row is priced", async () => {
    const { data, response } = await openai.responses
      .create({ model: "claude-haiku-4-5", user: CACHED_USER, input: question })
      .withResponse();
    expect(data.usage?.input_tokens_details.cached_tokens).toBe(READS);
    expectPriced(await rowOf(response.headers.get("x-request-id")), HAIKU, READS, WRITES, LONG_WRITES);
  });
});

describe("a chat-format model (OpenAI): reads at the listed cached-input price", () => {
  const chat = { model: "gpt-4o", user: CHAT_CACHED_USER, messages: [{ role: "user" as const, content: question }] };

  test("a whole answer", async () => {
    const { data, response } = await openai.chat.completions.create(chat).withResponse();
    expect(data.usage?.prompt_tokens_details?.cached_tokens).toBe(READS);
    expectPriced(await rowOf(response.headers.get("x-request-id")), GPT_4O, READS, WRITES, 0);
  });

  test("a stream (the gateway asks for its usage)", async () => {
    const { data, response } = await openai.chat.completions.create({ ...chat, stream: true }).withResponse();
    for await (const _ of data);
    expectPriced(await rowOf(response.headers.get("x-request-id")), GPT_4O, READS, WRITES, 0);
  });

  test("the Responses API, served natively: input_tokens_details.cached_tokens, whole and streamed", async () => {
    const ask = { model: "gpt-4o", user: CHAT_CACHED_USER, input: question };
    const whole = await openai.responses.create(ask).withResponse();
    expect(whole.data.usage?.input_tokens_details.cached_tokens).toBe(READS);
    expectPriced(await rowOf(whole.response.headers.get("x-request-id")), GPT_4O, READS, WRITES, 0);
    const streamed = await openai.responses.create({ ...ask, stream: true }).withResponse();
    for await (const _ of streamed.data);
    expectPriced(await rowOf(streamed.response.headers.get("x-request-id")), GPT_4O, READS, WRITES, 0);
  });
});

describe("the cloud platform (Bedrock) serving Anthropic's models, priced by Anthropic's rule", () => {
  const body = {
    model: BEDROCK_SONNET,
    max_tokens: 100,
    metadata: { user_id: CACHED_USER },
    messages: [{ role: "user" as const, content: question }],
  };

  test("a whole answer", async () => {
    const { response } = await anthropic.messages.create(body).withResponse();
    expectPriced(await rowOf(response.headers.get("x-request-id")), SONNET, READS, WRITES, LONG_WRITES);
  });

  test("a stream (binary event frames)", async () => {
    const { data, response } = await anthropic.messages.create({ ...body, stream: true }).withResponse();
    for await (const _ of data);
    expectPriced(await rowOf(response.headers.get("x-request-id")), SONNET, READS, WRITES, LONG_WRITES);
  });

  test("translated for a chat caller, streamed", async () => {
    const { data, response } = await openai.chat.completions
      .create({ model: BEDROCK_SONNET, user: CACHED_USER, stream: true, messages: [{ role: "user", content: question }] })
      .withResponse();
    for await (const _ of data);
    expectPriced(await rowOf(response.headers.get("x-request-id")), SONNET, READS, WRITES, LONG_WRITES);
  });
});

describe("models priced by the operator (GW_CATALOG)", () => {
  test("a model without cache prices charges its cache tokens at its input price, whole and streamed", async () => {
    const chat = { model: "gpt-plain-operator", user: CHAT_CACHED_USER, messages: [{ role: "user" as const, content: question }] };
    const whole = await openai.chat.completions.create(chat).withResponse();
    const wholeRow = await rowOf(whole.response.headers.get("x-request-id"));
    expectPriced(wholeRow, PLAIN, READS, WRITES, 0);
    expect(wholeRow.costMicros).toBe(wholeRow.promptTokens * PLAIN.input + wholeRow.completionTokens * PLAIN.output);
    const streamed = await openai.chat.completions.create({ ...chat, stream: true }).withResponse();
    for await (const _ of streamed.data);
    expectPriced(await rowOf(streamed.response.headers.get("x-request-id")), PLAIN, READS, WRITES, 0);
  });

  test("an override's cache prices are charged", async () => {
    const { response } = await openai.chat.completions
      .create({ model: "gpt-cached-operator", user: CHAT_CACHED_USER, messages: [{ role: "user", content: question }] })
      .withResponse();
    expectPriced(await rowOf(response.headers.get("x-request-id")), OPERATOR_CACHED, READS, WRITES, 0);
  });
});
