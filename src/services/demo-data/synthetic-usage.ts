/**
 * Realistic synthetic usage for a demo organization, so analytics and the dashboard are
 * not empty on a laptop: daily volume with growth and weekly seasonality (weekends
 * quieter), a few spike days, a small share of failures, several providers, models,
 * keys and applications. Deterministic for a seed. Events carry counts only.
 */
import type { UsageEvent } from "../../domain/types.ts";

export interface DemoModel {
  provider: string;
  model: string;
  /** Relative share of calls. */
  weight: number;
}

export const DEMO_MODELS: DemoModel[] = [
  { provider: "openai", model: "gpt-4o", weight: 3 },
  { provider: "openai", model: "gpt-4o-mini", weight: 5 },
  { provider: "anthropic", model: "claude-sonnet-4-5", weight: 3 },
  { provider: "anthropic", model: "claude-haiku-4-5", weight: 2 },
  { provider: "google", model: "gemini-2.5-flash", weight: 2 },
];

const APPLICATIONS = ["support-bot", "search", "reports", ""];
const DAY = 86_400_000;

export interface DemoOptions {
  orgId: string;
  keyIds: string[];
  days: number;
  /** The last day generated is the one holding this instant (only up to it). */
  now: number;
  seed?: number;
  /** Calls on the first weekday; grows about 1% a day. */
  baseCalls?: number;
  price: (model: string, promptTokens: number, completionTokens: number) => number;
}

/** mulberry32: small, fast, good enough for synthetic data. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Days (0 = first) that get a spike: three, spread over the history, none in the first week. */
export function spikeDays(days: number): Set<number> {
  if (days < 14) return new Set();
  return new Set([Math.floor(days * 0.3), Math.floor(days * 0.55), Math.floor(days * 0.8)]);
}

/** One day's events at a time, so a caller can write them in batches. */
export function* demoUsage(o: DemoOptions): Generator<UsageEvent[]> {
  const rand = rng(o.seed ?? 42);
  const first = Math.floor(o.now / DAY) * DAY - (o.days - 1) * DAY;
  const spikes = spikeDays(o.days);
  const totalWeight = DEMO_MODELS.reduce((n, m) => n + m.weight, 0);
  const pick = () => {
    let r = rand() * totalWeight;
    for (const m of DEMO_MODELS) if ((r -= m.weight) < 0) return m;
    return DEMO_MODELS[0]!;
  };
  let n = 0;
  for (let d = 0; d < o.days; d++) {
    const dayStart = first + d * DAY;
    const weekday = new Date(dayStart).getUTCDay();
    const seasonal = weekday === 0 || weekday === 6 ? 0.45 : 1;
    const calls = Math.round((o.baseCalls ?? 80) * 1.01 ** d * seasonal * (spikes.has(d) ? 4 : 1) * (0.9 + rand() * 0.2));
    const events: UsageEvent[] = [];
    for (let i = 0; i < calls; i++) {
      // Office hours are busier: a triangle around 14:00 UTC.
      const hour = Math.min(23, Math.max(0, Math.round(14 + (rand() + rand() + rand() - 1.5) * 8)));
      const createdAt = dayStart + hour * 3_600_000 + Math.floor(rand() * 3_600_000);
      if (createdAt > o.now) continue;
      const m = pick();
      const failed = rand() < 0.02;
      const promptTokens = failed ? 0 : 200 + Math.floor(rand() * 1800);
      const completionTokens = failed ? 0 : 50 + Math.floor(rand() * 600);
      events.push({
        id: `evt_demo_${o.orgId.slice(-8)}_${d}_${n++}`,
        requestId: `demo-${d}-${i}`,
        orgId: o.orgId,
        keyId: o.keyIds.length ? o.keyIds[Math.floor(rand() * o.keyIds.length)]! : null,
        userId: null,
        provider: m.provider,
        model: m.model,
        promptTokens,
        completionTokens,
        costMicros: failed ? 0 : o.price(m.model, promptTokens, completionTokens),
        latencyMs: 300 + Math.floor(rand() * 2500),
        status: failed ? (rand() < 0.5 ? 429 : 502) : 200,
        errorCode: failed ? "provider_error" : null,
        createdAt,
        applicationId: APPLICATIONS[Math.floor(rand() * APPLICATIONS.length)] || null,
      });
    }
    yield events;
  }
}
