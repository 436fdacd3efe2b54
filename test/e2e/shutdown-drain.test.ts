/**
 * A stream refused for substitution is still read in the background to record its
 * real cost. A shutdown in the middle of that read must not lose the call: the read is
 * cut short and the call is accounted, with the usage seen so far, before the last
 * flush.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { catalogPerFile } from "../support/catalog-file.ts";
import { type InitResult, removeDir, type RunningGateway, type RunningMock } from "../support/gateway-process.ts";
import { LAB_AT_MOCK } from "../support/provider-configs.ts";
import { startProcessStack } from "../support/stack.ts";
import { withStore } from "../support/store-access.ts";

const MODEL = "swap-gpt-4o-mini";
// The mock spreads its answer over this long: the background read is still going when the gateway is stopped.
const MOCK_LATENCY_MS = 5_000;

let gw: RunningGateway;
let mock: RunningMock;
let org: InitResult;
const catalogFile = catalogPerFile({ models: [{ id: MODEL, provider: "self-hosted", inputPerMTok: 3, outputPerMTok: 15 }] });

beforeAll(async () => {
  ({ mock, org, gw } = await startProcessStack({
    mockArgs: ["--latency-ms", String(MOCK_LATENCY_MS)],
    env: { GW_CATALOG: catalogFile },
    providers: [LAB_AT_MOCK],
  }));
});

afterAll(async () => {
  await mock.stop();
  removeDir(gw.dataDir);
});

test("SIGTERM during a refused stream's background read still records the call", async () => {
  const res = await fetch(`${gw.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${org.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ model: MODEL, stream: true, messages: [{ role: "user", content: "Tell me a story." }] }),
  });
  const requestId = res.headers.get("x-request-id") as string;
  const text = await res.text();
  expect(text).toContain("model_substitution_detected");
  // The client's stream ended before the provider's (read by the mock's counters, not a clock:
  // a busy machine stretches every duration).
  expect(await mock.stats()).toMatchObject({ streamsStarted: 1, streamsFinished: 0 });

  // The shutdown cut the background read short: the provider's stream was cancelled, never finished.
  await gw.stop("SIGTERM");
  expect((await mock.stats()).streamsCancelled).toBe(1);

  const row = (await withStore(gw.dataDir, (store) => store.listUsageEvents(org.orgId))).find((e) => e.requestId === requestId);
  expect(row).toMatchObject({ status: 502, errorCode: "model_substitution_detected" });
});
