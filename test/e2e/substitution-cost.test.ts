/**
 * A refused (substituted) answer was still paid for: its real cost is recorded, in
 * every format, plain and streamed. The steering models are priced through
 * GW_CATALOG, so a cost of 0 cannot pass for "recorded". Streams must be read to
 * their end in the background after the client got the error, so their usage row
 * must carry the same tokens as the plain answer to the same request.
 */
import { describe, expect, test } from "bun:test";
import type { UsageEvent } from "../../src/domain/types.ts";
import { catalogPerFile } from "../support/catalog-file.ts";
import { ANTHROPIC_AT_MOCK, BEDROCK_AT_MOCK, LAB_AT_MOCK } from "../support/provider-configs.ts";
import { stackPerFile } from "../support/stack.ts";
import { withStore } from "../support/store-access.ts";

// USD per million tokens is micro-dollars per token: these make every token visible in cost_micros.
const INPUT_PER_TOKEN = 3;
const OUTPUT_PER_TOKEN = 15;
const CHAT_MODEL = "swap-gpt-4o-mini";
const MESSAGES_MODEL = "swap-claude-haiku-4-5";
const PLATFORM_MODEL = "anthropic.swap-claude-3-5-haiku-20241022-v1:0";
// The mock spreads each stream over this long, so a drained stream ends well after the client's.
const MOCK_LATENCY_MS = 400;

const price = { inputPerMTok: INPUT_PER_TOKEN, outputPerMTok: OUTPUT_PER_TOKEN };
const catalogFile = catalogPerFile({
  models: [
    { id: CHAT_MODEL, provider: "self-hosted", ...price },
    { id: MESSAGES_MODEL, provider: "anthropic", ...price },
    { id: PLATFORM_MODEL, provider: "bedrock", ...price },
  ],
});
const stack = stackPerFile({
  mockArgs: ["--latency-ms", String(MOCK_LATENCY_MS)],
  env: { GW_CATALOG: catalogFile, GW_FLUSH_INTERVAL_MS: "20" },
  providers: [LAB_AT_MOCK, { ...ANTHROPIC_AT_MOCK, apiKey: "sk-ant-api03-cost-tests-0000" }, BEDROCK_AT_MOCK],
});

type UsageRow = UsageEvent;

async function rowOf(requestId: string): Promise<UsageRow | undefined> {
  return (await withStore(stack.gw.dataDir, (store) => store.listUsageEvents(stack.org.orgId))).find((e) => e.requestId === requestId);
}

async function waitForRow(requestId: string): Promise<UsageRow> {
  for (let i = 0; i < 200; i++) {
    const row = await rowOf(requestId);
    if (row) return row;
    await Bun.sleep(25);
  }
  throw new Error(`no usage row for ${requestId}`);
}

async function call(path: string, body: Record<string, unknown>) {
  const res = await fetch(`${stack.gw.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${stack.org.apiKey}`, "anthropic-version": "2023-06-01", "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text(), requestId: res.headers.get("x-request-id")! };
}

function expectRecordedCost(row: UsageRow, model: string) {
  expect(row).toMatchObject({ model, status: 502, errorCode: "model_substitution_detected" });
  expect(row.promptTokens).toBeGreaterThan(0);
  expect(row.completionTokens).toBeGreaterThan(0);
  expect(row.costMicros).toBe(row.promptTokens * INPUT_PER_TOKEN + row.completionTokens * OUTPUT_PER_TOKEN);
}

/** The plain call, then the same request streamed: both refused, both priced, with the same tokens. */
async function plainAndStreamed(path: string, body: Record<string, unknown>, model: string, streamStart: string) {
  const plain = await call(path, body);
  expect(plain.status).toBe(502);
  expect(plain.text).toContain("model_substitution_detected");
  const plainRow = await waitForRow(plain.requestId);
  expectRecordedCost(plainRow, model);

  const before = await stack.mock.stats();
  const streamed = await call(path, { ...body, stream: true });
  expect(streamed.status).toBe(200);
  expect(streamed.text.startsWith(streamStart)).toBe(true);
  expect(streamed.text).toContain("model_substitution_detected");
  // The client got its error and its end before the provider finished (the mock has not seen the stream end)...
  const whenClientDone = await stack.mock.stats();
  expect(whenClientDone.streamsFinished - before.streamsFinished).toBe(0);
  // ...and the call is accounted once the rest was read, with the whole answer's usage.
  const streamRow = await waitForRow(streamed.requestId);
  expectRecordedCost(streamRow, model);
  expect({ prompt: streamRow.promptTokens, completion: streamRow.completionTokens }).toEqual({
    prompt: plainRow.promptTokens,
    completion: plainRow.completionTokens,
  });
  // Read to its end, not cut off.
  const after = await stack.mock.stats();
  expect(after.streamsFinished - before.streamsFinished).toBe(1);
  expect(after.streamsCancelled - before.streamsCancelled).toBe(0);
}

const user = [{ role: "user", content: "Tell me about the weather in Paris in some detail" }];

describe("a substituted answer's cost is recorded", () => {
  test("chat completions, plain and streamed", async () => {
    await plainAndStreamed("/v1/chat/completions", { model: `lab/${CHAT_MODEL}`, messages: user }, CHAT_MODEL, "data: ");
  });

  test("messages, plain and streamed", async () => {
    await plainAndStreamed("/v1/messages", { model: MESSAGES_MODEL, max_tokens: 200, messages: user }, MESSAGES_MODEL, "event: error\n");
  });

  test("chat completions over a messages-format model (translated), plain and streamed", async () => {
    await plainAndStreamed("/v1/chat/completions", { model: MESSAGES_MODEL, max_tokens: 200, messages: user }, MESSAGES_MODEL, "data: ");
  });

  test("the cloud platform, plain", async () => {
    const plain = await call("/v1/messages", { model: PLATFORM_MODEL, max_tokens: 200, messages: user });
    expect(plain.status).toBe(502);
    expect(plain.text).toContain("model_substitution_detected");
    expectRecordedCost(await waitForRow(plain.requestId), PLATFORM_MODEL);
  });

  test("the cloud platform, streamed: the binary event stream is drained too", async () => {
    const plainRow = await waitForRow((await call("/v1/messages", { model: PLATFORM_MODEL, max_tokens: 200, messages: user })).requestId);
    const streamed = await call("/v1/messages", { model: PLATFORM_MODEL, max_tokens: 200, stream: true, messages: user });
    expect(streamed.text.startsWith("event: error\n")).toBe(true);
    const row = await waitForRow(streamed.requestId);
    expectRecordedCost(row, PLATFORM_MODEL);
    expect(row.completionTokens).toBe(plainRow.completionTokens);
  });
});
