/**
 * Long-context bands and service tiers, priced through the whole gateway with the
 * official clients. The mock provider reports a prompt past Claude Sonnet 4's 200K
 * threshold through its prompt-cache steer (src/mock-provider/cache-steer.ts: the reads
 * are part of the prompt, as the vendors count them), and echoes the service tier asked
 * for in `service_tier` (src/mock-provider/service-tier-echo.ts). The prices are written
 * out from the vendors' pages, not read from the catalog, so a wrong entry fails here.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import type { UsageEvent } from "../../src/domain/types.ts";
import { ANTHROPIC_AT_MOCK, OPENAI_AT_MOCK } from "../support/provider-configs.ts";
import { stackPerFile } from "../support/stack.ts";
import { usageRowOf } from "../support/usage-rows.ts";

/** USD per million tokens: input, output, cache read. */
interface Rates {
  input: number;
  output: number;
  read: number;
}
const SONNET: Rates = { input: 3, output: 15, read: 0.3 };
/** Claude Sonnet 4 (and 4.5) with a prompt over 200K tokens: the whole call at these rates, cache multipliers on the band's input. */
const SONNET_LONG: Rates = { input: 6, output: 22.5, read: 0.6 };
const GPT_5: Rates = { input: 1.25, output: 10, read: 0.125 };
const GPT_5_PRIORITY: Rates = { input: 2.5, output: 20, read: 0.25 };

let openai: OpenAI;
let anthropic: Anthropic;

const stack = stackPerFile({
  env: { GW_FLUSH_INTERVAL_MS: "20" },
  providers: [
    { ...OPENAI_AT_MOCK, apiKey: "sk-openai-band-test-123456" },
    { ...ANTHROPIC_AT_MOCK, apiKey: "sk-ant-api03-band-tests-0000" },
  ],
});

beforeAll(async () => {
  openai = new OpenAI({ baseURL: `${stack.gw.url}/v1`, apiKey: stack.org.apiKey, maxRetries: 0 });
  anthropic = new Anthropic({ baseURL: stack.gw.url, apiKey: stack.org.apiKey, maxRetries: 0 });
});

const rowOf = (requestId: string | null) => usageRowOf(stack.gw.dataDir, stack.org.orgId, requestId);

/** The row's cost at these rates: the uncached prompt, the cache reads and the answer, rounded up once. */
const costAt = (r: Rates, row: UsageEvent, reads: number) =>
  Math.ceil((row.promptTokens - reads) * r.input + reads * r.read + row.completionTokens * r.output);

const question = "Summarize the long contract in a sentence.";

describe("a long-context band (Claude Sonnet 4, prompts over 200K tokens)", () => {
  const ask = (reads: number) => ({
    model: "claude-sonnet-4-0",
    max_tokens: 100,
    metadata: { user_id: `cache-r${reads}-w0` },
    messages: [{ role: "user" as const, content: question }],
  });

  test("a prompt over the threshold is priced at the band's rates for the whole call, its cache reads included", async () => {
    const { data, response } = await anthropic.messages.create(ask(250_000)).withResponse();
    expect(data.usage.cache_read_input_tokens).toBe(250_000);
    const row = await rowOf(response.headers.get("x-request-id"));
    expect(row.promptTokens).toBeGreaterThan(200_000);
    expect(row.costMicros).toBe(costAt(SONNET_LONG, row, 250_000));
    // Before: the list rates, half the band's input and two thirds of its output.
    expect(row.costMicros).toBeGreaterThan(costAt(SONNET, row, 250_000));
  });

  test("streamed, the same", async () => {
    const { data, response } = await anthropic.messages.create({ ...ask(250_000), stream: true }).withResponse();
    for await (const _ of data);
    const row = await rowOf(response.headers.get("x-request-id"));
    expect(row.costMicros).toBe(costAt(SONNET_LONG, row, 250_000));
  });

  test("a prompt under the threshold stays at the list rates", async () => {
    const { response } = await anthropic.messages.create(ask(150_000)).withResponse();
    const row = await rowOf(response.headers.get("x-request-id"));
    expect(row.promptTokens).toBeLessThan(200_000);
    expect(row.costMicros).toBe(costAt(SONNET, row, 150_000));
  });
});

describe("service tiers (OpenAI GPT-5)", () => {
  const chat = (tier: "priority" | "flex") => ({
    model: "gpt-5",
    service_tier: tier,
    messages: [{ role: "user" as const, content: question }],
  });

  test("priority, whole and streamed: the answer names the tier and the row is priced at its listed rates", async () => {
    const whole = await openai.chat.completions.create(chat("priority")).withResponse();
    expect(whole.data.service_tier).toBe("priority");
    const row = await rowOf(whole.response.headers.get("x-request-id"));
    expect(row.costMicros).toBe(costAt(GPT_5_PRIORITY, row, 0));
    const streamed = await openai.chat.completions.create({ ...chat("priority"), stream: true }).withResponse();
    for await (const _ of streamed.data);
    const streamedRow = await rowOf(streamed.response.headers.get("x-request-id"));
    expect(streamedRow.costMicros).toBe(costAt(GPT_5_PRIORITY, streamedRow, 0));
  });

  test("flex, which the catalog lists no price for, is charged the standard price (above flex: a cap is never passed)", async () => {
    const { data, response } = await openai.chat.completions.create(chat("flex")).withResponse();
    expect(data.service_tier).toBe("flex");
    const row = await rowOf(response.headers.get("x-request-id"));
    expect(row.costMicros).toBe(costAt(GPT_5, row, 0));
  });

  test("the Responses API, served natively: priced at the tier its answer names", async () => {
    const { data, response } = await openai.responses.create({ model: "gpt-5", service_tier: "priority", input: question }).withResponse();
    expect(data.service_tier).toBe("priority");
    const row = await rowOf(response.headers.get("x-request-id"));
    expect(row.costMicros).toBe(costAt(GPT_5_PRIORITY, row, 0));
  });
});

describe("ai.cost quotes the band and the tier", () => {
  test("a prompt over the threshold is quoted at the band's rates; at the threshold, the list rates", async () => {
    const over = await stack.gw.op(stack.org.apiKey, "ai.cost", {
      model: "claude-sonnet-4-5",
      prompt_tokens: 200_001,
      completion_tokens: 1_000,
    });
    expect(over.status).toBe(200);
    expect(over.body.data.pricedAt).toBe("long_context");
    expect(over.body.data.inputCostUsd).toBeCloseTo(1.200006, 9);
    expect(over.body.data.outputCostUsd).toBeCloseTo(0.0225, 9);
    const at = await stack.gw.op(stack.org.apiKey, "ai.cost", {
      model: "claude-sonnet-4-5",
      prompt_tokens: 200_000,
      completion_tokens: 1_000,
    });
    expect(at.body.data.pricedAt).toBe("standard");
    expect(at.body.data.inputCostUsd).toBeCloseTo(0.6, 9);
    expect(at.body.data.outputCostUsd).toBeCloseTo(0.015, 9);
  });

  test("a listed tier is quoted at its rates; an unlisted one at the standard rates", async () => {
    const ask = { model: "gpt-5", prompt_tokens: 1_000_000, completion_tokens: 1_000_000 };
    const priority = await stack.gw.op(stack.org.apiKey, "ai.cost", { ...ask, service_tier: "priority" });
    expect(priority.body.data).toMatchObject({ pricedAt: "priority", totalCostUsd: 22.5 });
    const flex = await stack.gw.op(stack.org.apiKey, "ai.cost", { ...ask, service_tier: "flex" });
    expect(flex.body.data).toMatchObject({ pricedAt: "standard", totalCostUsd: 11.25 });
    const bad = await stack.gw.op(stack.org.apiKey, "ai.cost", { ...ask, service_tier: "" });
    expect(bad.status).toBe(400);
  });
});
