/** The mock's rate-limit headers move a provider to warning then critical; one notification per change. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import OpenAI from "openai";
import type { InitResult, RunningMock } from "../support/gateway-process.ts";
import type { GatewayUnderTest } from "../support/in-process.ts";
import { startStack, stopStack } from "../support/stack.ts";

let gw: GatewayUnderTest;
let mock: RunningMock;
let org: InitResult;
let client: OpenAI;

beforeAll(async () => {
  ({ mock, org, gw } = await startStack({ mockArgs: ["--rate-limit-requests", "8"], env: { GW_ALERT_CHECK_INTERVAL_S: "1" } }));
  await gw.op(org.apiKey, "provider.create", {
    provider: "openai",
    apiKey: "sk-openai-1234567890",
    baseUrl: `${mock.url}/v1`,
    scope: "organization",
  });
  await gw.op(org.apiKey, "provider.create", {
    provider: "anthropic",
    apiKey: "sk-ant-vendor-1234567890",
    baseUrl: mock.url,
    scope: "organization",
    limits: { requestsPerDay: 1000 },
  });
  client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: org.apiKey, maxRetries: 0 });
}, 30_000);

afterAll(async () => {
  await stopStack({ gw, mock });
});

const status = async () =>
  (await (await fetch(`${gw.url}/api/user/rate-limit-status`, { headers: { authorization: `Bearer ${org.apiKey}` } })).json()) as any;
const call = () => client.chat.completions.create({ model: "gpt-4o", max_tokens: 5, messages: [{ role: "user", content: "hi" }] });
const rateNotes = async () =>
  ((await gw.op(org.apiKey, "notifications.list", {})).body.data.notifications as any[]).filter((n) => n.kind === "rate_limit.status");

async function until<T>(probe: () => Promise<T | undefined>): Promise<T> {
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    await Bun.sleep(100);
  }
}

test("provider headers: ok, then warning at 6 of 8, then critical at 8 of 8, each announced once", async () => {
  // The mock's window is the clock minute: start where the whole test fits in one.
  while (new Date().getUTCSeconds() > 40) await Bun.sleep(500);
  const fresh = await status();
  expect(fresh.providers.find((p: any) => p.provider === "openai")).toMatchObject({ source: "none", status: "ok" });
  expect(fresh.providers.find((p: any) => p.provider === "anthropic")).toMatchObject({
    source: "configured",
    limits: { requestsPerDay: 1000 },
    status: "ok",
  });

  for (let i = 0; i < 5; i++) await call();
  expect((await status()).providers.find((p: any) => p.provider === "openai")).toMatchObject({
    source: "provider-headers",
    limits: { requestsPerMinute: 8 },
    usage: { requestsPerMinute: 5 },
    status: "ok",
  });
  await call();
  const warning = await status();
  expect(warning).toMatchObject({ overallStatus: "warning", hasWarnings: true, hasCritical: false });
  expect(warning.providers.find((p: any) => p.provider === "openai")).toMatchObject({
    percentages: { requestsPerMinute: 75 },
    status: "warning",
    warningThreshold: 75,
  });
  await until(async () => ((await rateNotes()).length === 1 ? true : undefined));

  await call();
  await call();
  const critical = (await gw.op(org.apiKey, "metrics.rate-limits", {})).body.data;
  expect(critical).toMatchObject({ overallStatus: "critical", hasCritical: true });
  expect(Date.parse(critical.providers.find((p: any) => p.provider === "openai").resetTime)).toBeGreaterThan(Date.now() - 1000);
  const notes = await until(async () => {
    const n = await rateNotes();
    return n.length === 2 ? n : undefined;
  });
  // Two more checks see the same state: nothing new.
  await Bun.sleep(2200);
  expect(await rateNotes()).toHaveLength(2);
  expect(notes.map((n) => [n.data.previous, n.data.status])).toEqual([
    ["warning", "critical"],
    ["ok", "warning"],
  ]);
}, 60_000);
