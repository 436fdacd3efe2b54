/**
 * `metrics.*` operations: cost by provider (and another grouping), and one dashboard
 * object for a window. Any member may read the organization's figures; everything is
 * read from the hourly roll-ups.
 */
import { Type } from "@sinclair/typebox";
import { badRequest } from "../lib/errors.ts";
import { budgetStatus, monthStart } from "../services/analytics/budget.ts";
import { type CostGroup, type GroupBy, groupCosts } from "../services/analytics/cost-groups.ts";
import { toCents, toDollars } from "../services/analytics/money.ts";
import { efficiencyScore } from "../services/analytics/trends.ts";
import { windowOf } from "../services/analytics/window.ts";
import { orgRateStatus } from "../services/rate-limits/org-rate-status.ts";
import { spentThisMonthMicros } from "../services/analytics/org-analytics.ts";
import { spendAccountOf } from "../domain/api-key.ts";
import { scanSummary } from "../services/scan-events.ts";
import { defineOperation } from "./registry.ts";
import { cacheReadShare } from "./usage-shapes.ts";

const MAX_DAYS = 366;
/**
 * Groups of models, keys and applications answered at most: callers name models and
 * applications, so a window can hold as many groups as calls. Days (at most 366) and
 * providers (the kinds) are few by construction.
 */
const DEFAULT_GROUPS = 100;
const MAX_GROUPS = 1000;
const MANY: readonly GroupBy[] = ["model", "key", "application"];
const GroupByParam = Type.Union([
  Type.Literal("provider"),
  Type.Literal("model"),
  Type.Literal("key"),
  Type.Literal("day"),
  Type.Literal("application"),
]);
const WindowParams = {
  windowDays: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_DAYS })),
  period: Type.Optional(Type.String({ pattern: "^[0-9]{1,3}d$" })),
  provider: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
};

/** The groups' tokens: prompt, completion, and of the prompt those the prompt caches served and stored, with the served share. */
function tokensOf(groups: readonly CostGroup[]) {
  const sum = (field: "promptTokens" | "completionTokens" | "cacheReadTokens" | "cacheWriteTokens") =>
    groups.reduce((n, g) => n + g[field], 0);
  const prompt = sum("promptTokens");
  const cacheRead = sum("cacheReadTokens");
  return {
    prompt,
    completion: sum("completionTokens"),
    cacheRead,
    cacheWrite: sum("cacheWriteTokens"),
    cacheReadShare: cacheReadShare(cacheRead, prompt),
  };
}

/** `windowDays` or `period` (`30d`), not both; 30 days when neither. */
function daysOf(p: { windowDays?: number; period?: string }): number {
  if (p.windowDays !== undefined && p.period !== undefined)
    throw badRequest("params: give windowDays or period, not both", { param: "params.period" });
  const days = p.windowDays ?? (p.period ? Number.parseInt(p.period, 10) : 30);
  if (days < 1 || days > MAX_DAYS) throw badRequest(`params.period: between 1d and ${MAX_DAYS}d`, { param: "params.period" });
  return days;
}

export const metricsCost = defineOperation({
  id: "metrics.cost",
  access: "read",
  summary:
    "Cost over the last N UTC days (today included): totalCostCents, byProvider {costCents, calls}, tokens (prompt, completion, cacheRead, cacheWrite, cacheReadShare), and rows grouped by provider, model, key, day or application; `application` filters.",
  params: Type.Object(
    {
      ...WindowParams,
      groupBy: Type.Optional(GroupByParam),
      application: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_GROUPS })),
    },
    { additionalProperties: false },
  ),
  async run({ identity, deps }, p) {
    // Applications are kept in the daily roll-up, which has no key dimension.
    if (p.application !== undefined && p.groupBy === "key")
      throw badRequest("params: groupBy key cannot be combined with an application filter", { param: "params.groupBy" });
    const w = windowOf(daysOf(p), deps.now());
    const sum = (by: GroupBy, top?: number) =>
      deps.store.sumUsage(identity.organization.id, w.from, w.to, {
        by: [by],
        provider: p.provider ?? null,
        application: p.application ?? null,
        top,
      });
    const byProviderGroups = groupCosts(await sum("provider"), "provider");
    const groupBy: GroupBy = p.groupBy ?? "provider";
    // One more than answered, to tell whether any were left out.
    const limit = MANY.includes(groupBy) ? (p.limit ?? DEFAULT_GROUPS) : undefined;
    const rows = groupBy === "provider" ? null : await sum(groupBy, limit === undefined ? undefined : limit + 1);
    const moreGroups = limit !== undefined && rows !== null && rows.length > limit;
    const grouped = rows === null ? byProviderGroups : groupCosts(rows.slice(0, limit), groupBy);
    return {
      windowDays: w.days,
      from: new Date(w.from).toISOString(),
      to: new Date(w.to).toISOString(),
      totalCostCents: byProviderGroups.totalCents,
      totalCostUsd: toDollars(byProviderGroups.totalMicros),
      totalCalls: byProviderGroups.groups.reduce((n, g) => n + g.calls, 0),
      tokens: tokensOf(byProviderGroups.groups),
      byProvider: Object.fromEntries(byProviderGroups.groups.map((g) => [g.key, { costCents: g.costCents, calls: g.calls }])),
      groupBy,
      // Models, keys and applications: the `limit` most costly (100 by default); true when there are more.
      moreGroups,
      groups: grouped.groups.map((g) => ({
        [groupBy]: g.key,
        costCents: g.costCents,
        costUsd: toDollars(g.costMicros),
        calls: g.calls,
        errors: g.errors,
        promptTokens: g.promptTokens,
        completionTokens: g.completionTokens,
        cacheReadTokens: g.cacheReadTokens,
        cacheWriteTokens: g.cacheWriteTokens,
        cacheReadShare: cacheReadShare(g.cacheReadTokens, g.promptTokens),
      })),
    };
  },
});

const TOP = 5;

export const metricsComprehensive = defineOperation({
  id: "metrics.comprehensive",
  access: "read",
  summary:
    "One dashboard object for the window: cost, calls, errors, latency, tokens (the prompt cache's reads and writes apart), top models and keys, efficiency, key caps, the monthly budget, and calls the scanner flagged or blocked.",
  params: Type.Object(WindowParams, { additionalProperties: false }),
  async run({ identity, deps }, p) {
    const orgId = identity.organization.id;
    const now = deps.now();
    const w = windowOf(daysOf(p), now);
    const sum = (by: GroupBy, top?: number) => deps.store.sumUsage(orgId, w.from, w.to, { by: [by], provider: p.provider ?? null, top });
    const [providerRows, modelRows, keyRows, dailyRows] = await Promise.all([
      sum("provider"),
      // Only the top ones are shown, and the store picks them: a window may hold a group per call.
      sum("model", TOP),
      sum("key", TOP),
      deps.store.sumUsage(orgId, w.from, w.to, { by: ["day", "provider"], provider: p.provider ?? null }),
    ]);
    const byProvider = groupCosts(providerRows, "provider");
    const calls = byProvider.groups.reduce((n, g) => n + g.calls, 0);
    const errors = byProvider.groups.reduce((n, g) => n + g.errors, 0);
    const latency = byProvider.groups.reduce((n, g) => n + g.latencyMsSum, 0);
    const [prefs, monthMicros, keys, security] = await Promise.all([
      deps.store.getOrgPreferences(orgId),
      spentThisMonthMicros(deps.store, orgId, now),
      deps.store.listApiKeys(orgId, { includeRevoked: false }),
      scanSummary(deps.store, orgId, w.from, w.to),
    ]);
    const capped = keys.filter((k) => k.spendCapCents !== null || k.monthlyCapCents !== null);
    const keyMonth = await Promise.all(capped.map((k) => deps.store.sumCostMicros(orgId, spendAccountOf(k), monthStart(now))));
    const top = (by: GroupBy, rows: typeof modelRows) =>
      groupCosts(rows, by)
        .groups.slice(0, TOP)
        .map((g) => ({ [by]: g.key, costCents: g.costCents, calls: g.calls, errors: g.errors }));
    return {
      windowDays: w.days,
      from: new Date(w.from).toISOString(),
      to: new Date(w.to).toISOString(),
      cost: {
        totalCostCents: byProvider.totalCents,
        totalCostUsd: toDollars(byProvider.totalMicros),
        byProvider: Object.fromEntries(byProvider.groups.map((g) => [g.key, { costCents: g.costCents, calls: g.calls }])),
      },
      calls,
      errors,
      errorRate: calls ? errors / calls : 0,
      // The roll-ups keep latency sums, so the mean is exact; percentiles would need raw rows.
      avgLatencyMs: calls ? Math.round(latency / calls) : 0,
      tokens: tokensOf(byProvider.groups),
      efficiencyScore: Math.round(efficiencyScore(dailyRows) * 100) / 100,
      topModels: top("model", modelRows),
      topKeys: top("key", keyRows),
      keyCaps: capped.map((k, i) => ({
        keyId: k.id,
        name: k.name,
        spendCapCents: k.spendCapCents,
        spentCents: toCents(k.spentMicros),
        monthlyCapCents: k.monthlyCapCents,
        spentThisMonthCents: toCents(keyMonth[i]!),
      })),
      budget: budgetStatus(prefs.monthlyBudgetCents, monthMicros, now),
      // Calls the scanner flagged (forwarded) or refused in the window, by category.
      security,
    };
  },
});

export const metricsRateLimits = defineOperation({
  id: "metrics.rate-limits",
  access: "read",
  summary: "Rate-limit status of each provider configuration: configured limits, else the provider's reported ones, against what was sent.",
  params: Type.Object({}, { additionalProperties: false }),
  async run({ identity, deps }) {
    return orgRateStatus(deps.store, deps.rateUsage, identity.organization.id, deps.now());
  },
});

export const metricsOperations = [metricsCost, metricsComprehensive, metricsRateLimits];
