/**
 * Prompt-cache tokens, counted where operators read usage, through the gateway on the
 * embedded store and on Postgres: the mock provider reports cache reads and writes for
 * the end user `cache-r<reads>-w<writes>[-h<1-hour writes>]`, and each call's usage row,
 * the hourly roll-up, and the sums of `metrics.cost`, `metrics.comprehensive` and
 * `usage.daily` hold them (a call that reported none, 0), with the cache's share of the
 * prompt.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { UsageEvent } from "../../src/domain/types.ts";
import { hourOf } from "../../src/store/hourly-rollup.ts";
import { type InProcessGateway, startInProcessGateway } from "../support/in-process-gateway.ts";
import { mockPerFile } from "../support/mock-per-file.ts";
import { postgresPerFile } from "../support/postgres-per-file.ts";

const mock = mockPerFile();
const pg = postgresPerFile();

const question = "Summarize the cached handbook in a sentence.";

/** The calls made, each with the cache counts its row must hold. */
const CALLS = [
  {
    name: "a chat call, whole",
    path: "/v1/chat/completions",
    body: { model: "gpt-4o", user: "cache-r2000-w1000", messages: [{ role: "user", content: question }] },
    read: 2000,
    write: 1000,
  },
  {
    name: "a chat call, streamed",
    path: "/v1/chat/completions",
    body: { model: "gpt-4o", user: "cache-r500-w0", stream: true, messages: [{ role: "user", content: question }] },
    read: 500,
    write: 0,
  },
  {
    name: "a messages call (1-hour writes among its writes)",
    path: "/v1/messages",
    body: {
      model: "claude-haiku-4-5",
      max_tokens: 100,
      metadata: { user_id: "cache-r300-w200-h50" },
      messages: [{ role: "user", content: question }],
    },
    read: 300,
    write: 200,
  },
  {
    name: "a call the cache had no part in",
    path: "/v1/chat/completions",
    body: { model: "gpt-4o", messages: [{ role: "user", content: question }] },
    read: 0,
    write: 0,
  },
];

const stores: [string, () => Promise<Record<string, string>>][] = [
  ["the embedded store", async () => ({})],
  ["Postgres", async () => ({ GW_DATABASE_URL: await pg.createDatabase() })],
];

for (const [name, env] of stores)
  describe(name, () => {
    let gw: InProcessGateway;
    /** Each call's usage row, in CALLS order. */
    const rows: UsageEvent[] = [];
    let startedAt: number;

    beforeAll(async () => {
      gw = await startInProcessGateway({ env: await env() });
      const admin = { key: gw.init.keyValue };
      for (const p of [
        { provider: "openai", apiKey: "sk-openai-cache-usage-123456", baseUrl: `${mock.url}/v1` },
        { provider: "anthropic", apiKey: "sk-ant-api03-cache-usage-0000", baseUrl: mock.url },
      ])
        expect((await gw.op(admin, "provider.create", { ...p, scope: "organization" })).status).toBe(200);
      startedAt = Date.now();
      const ids: string[] = [];
      for (const c of CALLS) {
        const res = await gw.handle(
          new Request(`${gw.origin}${c.path}`, {
            method: "POST",
            headers: { authorization: `Bearer ${gw.init.keyValue}`, "content-type": "application/json" },
            body: JSON.stringify(c.body),
          }),
        );
        expect(res.status).toBe(200);
        await res.text();
        ids.push(res.headers.get("x-request-id") ?? "");
      }
      // A streamed call's row is recorded when its stream ends: wait for every row.
      for (let i = 0; i < 200 && rows.length < CALLS.length; i++) {
        await gw.rt.usage.flush();
        const written = await gw.rt.store.listUsageEvents(gw.init.organization.id);
        const found = ids.map((id) => written.find((e) => e.requestId === id));
        if (found.every((e) => e !== undefined)) rows.push(...(found as UsageEvent[]));
        else await Bun.sleep(25);
      }
      expect(rows).toHaveLength(CALLS.length);
    }, 60_000);
    afterAll(() => gw?.stop());

    const admin = () => ({ key: gw.init.keyValue });
    const sum = (pick: (e: UsageEvent, i: number) => number) => rows.reduce((n, e, i) => n + pick(e, i), 0);

    test("each call's usage row holds the tokens the cache served and stored, of its prompt", () => {
      expect(rows.map((e) => [e.status, e.cacheReadTokens, e.cacheWriteTokens])).toEqual(CALLS.map((c) => [200, c.read, c.write]));
      for (const e of rows) expect(e.promptTokens).toBeGreaterThan((e.cacheReadTokens ?? 0) + (e.cacheWriteTokens ?? 0));
    });

    test("the hourly roll-up sums them per provider and model", async () => {
      const hour = hourOf(startedAt);
      const hourly = await gw.rt.store.listUsageHourly(gw.init.organization.id, hour, hourOf(Date.now()) + 3_600_000);
      const of = (model: string) => {
        const mine = hourly.filter((h) => h.model === model);
        return [mine.reduce((n, h) => n + h.cacheReadTokens, 0), mine.reduce((n, h) => n + h.cacheWriteTokens, 0)];
      };
      expect(of("gpt-4o")).toEqual([2500, 1000]);
      expect(of("claude-haiku-4-5")).toEqual([300, 200]);
    });

    test("metrics.cost answers the sums, per group and in all, with the share of the prompt the cache served", async () => {
      const prompt = sum((e) => e.promptTokens);
      const r = await gw.op(admin(), "metrics.cost", { groupBy: "model", windowDays: 1 });
      expect(r.status).toBe(200);
      expect(r.body.data.tokens).toEqual({
        prompt,
        completion: sum((e) => e.completionTokens),
        cacheRead: 2800,
        cacheWrite: 1200,
        cacheReadShare: Math.round((2800 / prompt) * 10_000) / 10_000,
      });
      const gpt = r.body.data.groups.find((g: { model: string }) => g.model === "gpt-4o");
      const gptPrompt = sum((e, i) => (CALLS[i]!.body.model === "gpt-4o" ? e.promptTokens : 0));
      expect(gpt).toMatchObject({
        promptTokens: gptPrompt,
        cacheReadTokens: 2500,
        cacheWriteTokens: 1000,
        cacheReadShare: Math.round((2500 / gptPrompt) * 10_000) / 10_000,
      });
      // The specification's fields are all still there.
      expect(r.body.data).toMatchObject({
        totalCostCents: expect.any(Number),
        byProvider: { openai: { calls: 3 }, anthropic: { calls: 1 } },
      });
    });

    test("metrics.comprehensive and usage.daily answer the same sums", async () => {
      const overview = await gw.op(admin(), "metrics.comprehensive", { windowDays: 1 });
      expect(overview.body.data.tokens).toMatchObject({ prompt: sum((e) => e.promptTokens), cacheRead: 2800, cacheWrite: 1200 });
      const daily = await gw.op(admin(), "usage.daily", { days: 1 });
      const today = daily.body.data.days[0];
      expect(today).toMatchObject({ requests: 4, promptTokens: sum((e) => e.promptTokens), cacheReadTokens: 2800, cacheWriteTokens: 1200 });
      expect(today.byProvider.openai).toMatchObject({ requests: 3, cacheReadTokens: 2500, cacheWriteTokens: 1000 });
      expect(today.byProvider.anthropic).toMatchObject({ requests: 1, cacheReadTokens: 300, cacheWriteTokens: 200 });
    });
  });
