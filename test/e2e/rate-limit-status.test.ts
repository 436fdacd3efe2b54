/** The mock's rate-limit headers move a provider to warning then critical; one notification per change. */
import { beforeAll, expect, test } from "bun:test";
import OpenAI from "openai";
import { ANTHROPIC_AT_MOCK, OPENAI_AT_MOCK } from "../support/provider-configs.ts";
import { stackPerFile } from "../support/stack.ts";
import { until } from "../support/poll.ts";

let client: OpenAI;

const stack = stackPerFile({
  mockArgs: ["--rate-limit-requests", "8"],
  env: { GW_ALERT_CHECK_INTERVAL_S: "1" },
  providers: [OPENAI_AT_MOCK, { ...ANTHROPIC_AT_MOCK, limits: { requestsPerDay: 1000 } }],
});

beforeAll(async () => {
  client = new OpenAI({ baseURL: `${stack.gw.url}/v1`, apiKey: stack.org.apiKey, maxRetries: 0 });
}, 30_000);

const status = async () =>
  (await (
    await fetch(`${stack.gw.url}/api/user/rate-limit-status`, { headers: { authorization: `Bearer ${stack.org.apiKey}` } })
  ).json()) as any;
const call = () => client.chat.completions.create({ model: "gpt-4o", max_tokens: 5, messages: [{ role: "user", content: "hi" }] });
const rateNotes = async () =>
  ((await stack.gw.op(stack.org.apiKey, "notifications.list", {})).body.data.notifications as any[]).filter(
    (n) => n.kind === "rate_limit.status",
  );

test("provider headers: ok, then warning at 6 of 8, then critical at 8 of 8, each announced once", async () => {
  // The mock's window is the clock minute: start where the whole test fits in one.
  while (new Date().getUTCSeconds() > 40) await Bun.sleep(500);
  const fresh = await status();
  const at = Date.now();
  expect(fresh.providers.find((p: any) => p.provider === "openai")).toMatchObject({
    source: "none",
    status: "ok",
    // No limit known yet: the end of the current minute.
    resetTime: new Date(Math.floor(at / 60_000) * 60_000 + 60_000).toISOString(),
  });
  expect(fresh.providers.find((p: any) => p.provider === "anthropic")).toMatchObject({
    source: "configured",
    limits: { requestsPerDay: 1000 },
    status: "ok",
    // A daily limit's window ends at the next midnight UTC.
    resetTime: new Date(Math.floor(at / 86_400_000) * 86_400_000 + 86_400_000).toISOString(),
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
  const critical = (await stack.gw.op(stack.org.apiKey, "metrics.rate-limits", {})).body.data;
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

test("a used-up daily limit: refused until the next midnight UTC, the time its 429 names; critical counts as a warning", async () => {
  await stack.gw.op(stack.org.apiKey, "provider.create", {
    provider: "openai",
    name: "daily",
    apiKey: "sk-openai-daily-1234567890",
    baseUrl: `${stack.mock.url}/v1`,
    scope: "organization",
    limits: { requestsPerDay: 2, requestsPerMinute: 100 },
  });
  const daily = () => client.chat.completions.create({ model: "daily/gpt-4o", max_tokens: 5, messages: [{ role: "user", content: "hi" }] });
  await daily();
  await daily();
  const refused = await daily().catch((e) => e);
  expect(refused).toBeInstanceOf(OpenAI.APIError);
  expect(refused.status).toBe(429);
  const resetAt: string = refused.error.details.resetAt;
  expect(Date.parse(resetAt) % 86_400_000).toBe(0);
  const report = await status();
  expect(report).toMatchObject({ overallStatus: "critical", hasCritical: true, hasWarnings: true });
  const row = report.providers.find((p: any) => p.provider === "daily");
  expect(row).toMatchObject({ percentages: { requestsPerDay: 100 }, status: "critical", resetTime: resetAt });
  expect(row.message).toContain("refused");
  expect(row.message).not.toContain("may be refused");
});
