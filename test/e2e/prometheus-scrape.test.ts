/**
 * /metrics scraped by a real Prometheus (Debian's package) with the metrics token as
 * bearer: the exposition parses, a counter and the GenAI histograms can be queried, and
 * `promtool check metrics` finds nothing to correct.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type PrometheusServer, startPrometheus } from "../support/prometheus.ts";
import { clientStackPerFile } from "../support/client-stack.ts";

const TOKEN = "metrics-token-for-the-scrape";

const stack = clientStackPerFile({ env: { GW_METRICS_TOKEN: TOKEN }, openai: { name: "oa" } });
let prom: PrometheusServer;

beforeAll(async () => {
  const openai = stack.openai;
  for (const model of ["oa/gpt-4o-mini", "oa/gpt-4o-mini", "oa/made-up-model-1", "oa/made-up-model-2"])
    await openai.chat.completions.create({ model, messages: [{ role: "user", content: "hello" }] });
  await openai.embeddings.create({ model: "oa/text-embedding-3-small", input: "hello" });
  await openai.chat.completions.create(
    { model: "oa/fail-503", messages: [{ role: "user", content: "hello" }] },
    { headers: { "x-gw-fallback-models": "oa/gpt-4o-mini" } },
  );
  prom = await startPrometheus({ host: new URL(stack.gw.url).host, metricsPath: "/metrics", bearer: TOKEN });
});

afterAll(async () => {
  await prom?.stop();
});

test("the scrape succeeds with the token (up is 1)", async () => {
  const [up] = await prom.waitFor('up{job="gateway"} == 1');
  expect(up!.value[1]).toBe("1");
});

test("a counter is queried", async () => {
  const rows = await prom.waitFor('gateway_http_requests_total{route="/v1/chat/completions",status="200"}');
  expect(Number(rows[0]!.value[1])).toBe(5);
});

test("the GenAI histograms are queried, with models the catalog does not list folded into one label", async () => {
  const input = await prom.waitFor('gen_ai_client_token_usage_count{gen_ai_token_type="input",gen_ai_operation_name="chat"}');
  const byModel = Object.fromEntries(input.map((r) => [r.metric.gen_ai_request_model, Number(r.value[1])]));
  expect(byModel).toEqual({ "gpt-4o-mini": 3, other: 2 });
  expect(input.every((r) => r.metric.gen_ai_provider_name === "openai")).toBe(true);
  const p50 = await prom.waitFor("histogram_quantile(0.5, sum by (le) (gen_ai_client_operation_duration_seconds_bucket))");
  expect(Number(p50[0]!.value[1])).toBeGreaterThan(0);
  const embeddings = await prom.waitFor('gen_ai_client_token_usage_count{gen_ai_operation_name="embeddings"}');
  expect(embeddings.map((r) => r.metric.gen_ai_token_type)).toEqual(["input"]);
});

test("spend by provider and fallbacks by cause are counted", async () => {
  const spend = await prom.waitFor('gateway_spend_microdollars_total{gen_ai_provider_name="openai",gen_ai_request_model="gpt-4o-mini"}');
  expect(Number(spend[0]!.value[1])).toBeGreaterThan(0);
  const fallbacks = await prom.waitFor("gateway_fallbacks_total");
  expect(fallbacks.map((r) => [r.metric.cause, r.value[1]])).toEqual([[expect.stringMatching(/^provider_/), "1"]]);
  const failed = await prom.waitFor('gen_ai_client_operation_duration_seconds_count{error_type!=""}');
  expect(failed[0]!.metric.error_type).toMatch(/^provider_/);
});

test("promtool finds nothing to correct in the exposition", async () => {
  const text = await (await fetch(`${stack.gw.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
  const check = Bun.spawnSync(["promtool", "check", "metrics"], { stdin: new TextEncoder().encode(text) });
  expect(check.stdout.toString() + check.stderr.toString()).toBe("");
  expect(check.exitCode).toBe(0);
});
