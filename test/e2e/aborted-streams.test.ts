/**
 * Issue 22: a client that leaves a stream after its first chunk is charged for what was
 * sent (its prompt, and the answer pieces delivered), so aborting cannot spend for free.
 */
import { beforeAll, expect, test } from "bun:test";
import OpenAI from "openai";
import { OPENAI_AT_MOCK } from "../support/provider-configs.ts";
import { stackPerFile } from "../support/stack.ts";
import { withStore } from "../support/store-access.ts";

const stack = stackPerFile({
  mockArgs: ["--latency-ms", "4000", "--stream-chunks", "40"],
  env: { GW_FLUSH_INTERVAL_MS: "50" },
  providers: [OPENAI_AT_MOCK],
});

beforeAll(async () => {
  // Streams spread over seconds: the client leaves long before the provider's usage chunk.
});

/** The key's usage rows, read through the Store (so the test holds on any store). */
const rowsOf = async (keyId: string) =>
  (await withStore(stack.gw.dataDir, (store) => store.listUsageEvents(stack.org.orgId)))
    .filter((e) => e.keyId === keyId)
    .map((e) => ({
      status: e.status,
      error_code: e.errorCode,
      prompt_tokens: e.promptTokens,
      completion_tokens: e.completionTokens,
      cost_micros: e.costMicros,
    }));

/** Until the flush has written `n` rows for the key (the flush runs every 50 ms). */
async function rowsWritten(keyId: string, n: number) {
  for (;;) {
    const rows = await rowsOf(keyId);
    if (rows.length >= n) return rows;
    await Bun.sleep(25);
  }
}

// About 600 prompt tokens of gpt-4o: some 1,500 micro-dollars, so a 1-cent cap holds a handful of calls.
const PROMPT = "Tell me a long story about a lighthouse keeper and the sea. ".repeat(50);

test("a client aborting after the first chunk is charged, and repeated it meets a 1-cent cap", async () => {
  const created = await stack.gw.op(stack.org.apiKey, "org.service-account.create", { serviceAccountName: "aborter", spendCapCents: 1 });
  const { id, key } = created.body.data.apiKey;
  const client = new OpenAI({ baseURL: `${stack.gw.url}/v1`, apiKey: key, maxRetries: 0 });
  const abortOnce = async () => {
    const stream = await client.chat.completions.create({
      model: "gpt-4o",
      max_tokens: 50,
      stream: true,
      messages: [{ role: "user", content: PROMPT }],
    });
    for await (const _chunk of stream) break; // leaving the loop aborts the request
  };

  await abortOnce();
  const [first] = await rowsWritten(id, 1);
  expect(first).toMatchObject({ status: 499, error_code: "stream_interrupted" });
  expect(first?.prompt_tokens).toBeGreaterThan(500);
  expect(first?.cost_micros).toBeGreaterThan(1000);

  let refused: any = null;
  for (let calls = 1; calls < 20 && !refused; calls++) {
    // The previous call is settled before the next one reserves.
    await rowsWritten(id, calls);
    refused = await abortOnce().then(
      () => null,
      (e) => e,
    );
  }
  expect(refused?.status).toBe(429);
  expect(refused?.error?.code).toBe("spend_cap_exceeded");
  const spent = (await rowsOf(id)).reduce((n, r) => n + r.cost_micros, 0);
  expect(spent).toBeGreaterThan(5_000);
  expect(spent).toBeLessThanOrEqual(10_000);
});
