import { describe, expect, test } from "bun:test";
import type { Candidate } from "../../src/routing/candidate.ts";
import { decide } from "../../src/routing/decide.ts";
import type { RouteNeeds } from "../../src/routing/needs.ts";

const TEXT = { tools: false, vision: false, json: false, embeddings: false };
const ALL = { tools: true, vision: true, json: true, embeddings: false };

function cand(providerName: string, model: string, over: Partial<Candidate> = {}): Candidate {
  return {
    providerId: `p-${providerName}`,
    providerName,
    model,
    inputPerMTok: 1,
    outputPerMTok: 4,
    contextWindow: 128_000,
    maxOutputTokens: 16_000,
    capabilities: ALL,
    quality: 80,
    latencyMs: 1000,
    errorRate: 0,
    unavailable: null,
    ...over,
  };
}

const needs = (over: Partial<RouteNeeds> = {}): RouteNeeds => ({
  tools: false,
  vision: false,
  json: false,
  promptTokens: 1000,
  maxTokens: 100,
  ...over,
});

const cheap = cand("a", "cheap", { inputPerMTok: 0.1, outputPerMTok: 0.4, quality: 70, latencyMs: 800 });
const fast = cand("b", "fast", { inputPerMTok: 1, outputPerMTok: 4, quality: 80, latencyMs: 300 });
const best = cand("c", "best", { inputPerMTok: 15, outputPerMTok: 75, quality: 95, latencyMs: 3000 });
const table = [best, fast, cheap];

const order = (d: ReturnType<typeof decide>) => (d.ok ? d.ranked.map((r) => r.candidate.model) : d.reason);

describe("each strategy picks on its axis", () => {
  test("cost: the cheapest for this prompt and answer", () => {
    expect(order(decide(table, needs(), "cost"))).toEqual(["cheap", "fast", "best"]);
  });
  test("speed: the lowest expected latency", () => {
    expect(order(decide(table, needs(), "speed"))).toEqual(["fast", "cheap", "best"]);
  });
  test("quality: the highest catalog score", () => {
    expect(order(decide(table, needs(), "quality"))).toEqual(["best", "fast", "cheap"]);
  });
  test("balanced: the weighted sum of the three normalized axes (chat: 0.4 cost, 0.3 speed, 0.3 quality)", () => {
    const d = decide(table, needs(), "balanced");
    if (!d.ok) throw new Error(d.message);
    // fast: cost 0.94 (normalized), speed 1, quality 0.4 -> 0.4*0.94+0.3+0.12
    const fastScore = d.ranked.find((r) => r.candidate.model === "fast")!.score;
    const costs = d.ranked.map((r) => r.estimatedCostMicros);
    expect(costs.sort((a, b) => a - b)).toEqual([140, 1400, 22500]);
    expect(fastScore).toBeCloseTo(0.4 * ((22500 - 1400) / (22500 - 140)) + 0.3 * 1 + 0.3 * ((80 - 70) / 25), 6);
    expect(order(d)).toEqual(["fast", "cheap", "best"]);
  });
  test("reasoning re-weights balanced toward quality and drops models under 80", () => {
    expect(order(decide(table, needs(), "balanced", "reasoning"))).toEqual(["best", "fast"]);
  });
});

test("the reasoning sentence names the deciding numbers", () => {
  const d = decide(table, needs(), "cost");
  if (!d.ok) throw new Error();
  expect(d.reasoning).toBe("a/cheap is the cheapest capable model (estimated $0.00014, 800 ms, quality 70) against b/fast at $0.0014.");
});

describe("capabilities", () => {
  test("tools, image inputs and JSON mode need the capability; context must hold prompt plus answer", () => {
    const noTools = cand("x", "no-tools", { capabilities: { ...ALL, tools: false } });
    const noVision = cand("x", "no-vision", { capabilities: { ...ALL, vision: false } });
    const noJson = cand("x", "no-json", { capabilities: { ...ALL, json: false } });
    const small = cand("x", "small", { contextWindow: 1050 });
    const all = [noTools, noVision, noJson, small];
    expect(order(decide(all, needs({ tools: true }), "cost"))).not.toContain("no-tools");
    expect(order(decide(all, needs({ vision: true }), "cost"))).not.toContain("no-vision");
    expect(order(decide(all, needs({ json: true }), "cost"))).not.toContain("no-json");
    expect(order(decide(all, needs(), "cost"))).not.toContain("small");
    expect(order(decide(all, needs({ maxTokens: 20 }), "cost"))).toContain("small");
  });
  test("embeddings models never serve chat", () => {
    const emb = cand("x", "text-embedding-3-small", { capabilities: { ...TEXT, embeddings: true }, maxOutputTokens: 0 });
    const d = decide([emb], needs(), "cost");
    expect(d.ok).toBe(false);
    if (!d.ok) {
      expect(d.reason).toBe("not_capable");
      expect(d.message).toBe("None of the 1 candidate models can serve this request (1 with an embeddings model).");
    }
  });
  test("when none can serve, each reason is counted", () => {
    const emb = (m: string) => cand("x", m, { capabilities: { ...TEXT, embeddings: true }, maxOutputTokens: 0 });
    const noTools = cand("x", "plain", { capabilities: { ...TEXT, tools: false } });
    const d = decide([emb("e1"), noTools, emb("e2")], needs({ tools: true }), "cost", "chat", 5);
    expect(d.ok ? "routed" : d.message).toBe(
      "None of the 3 candidate models can serve this request (2 with an embeddings model, 1 with no tool calling).",
    );
  });
  test("no candidate at all is no_provider", () => {
    const d = decide([], needs(), "balanced");
    expect(d.ok ? "routed" : d.reason).toBe("no_provider");
  });
});

describe("health and ties", () => {
  test("a candidate cooling down goes after every available one, and still serves when all are down", () => {
    const down = { ...fast, unavailable: "cooldown" as const };
    expect(order(decide([best, down, cheap], needs(), "speed"))).toEqual(["cheap", "best", "fast"]);
    const allDown = [best, fast, cheap].map((c) => ({ ...c, unavailable: "cooldown" as const }));
    expect(order(decide(allDown, needs(), "speed"))).toEqual(["fast", "cheap", "best"]);
  });
  test("errors stretch the expected latency", () => {
    const flaky = { ...fast, errorRate: 0.9 }; // 300 ms x (1 + 2 x 0.9) = 840 ms, slower than cheap's 800
    expect(order(decide([flaky, cheap], needs(), "speed"))).toEqual(["cheap", "fast"]);
  });
  test("equal candidates are ordered by provider then model name, whatever the input order", () => {
    const x = cand("zeta", "m");
    const y = cand("alpha", "m");
    const z = cand("alpha", "l");
    expect(order(decide([x, y, z], needs(), "balanced"))).toEqual(["l", "m", "m"]);
    const d = decide([x, y, z], needs(), "balanced");
    if (d.ok) expect(d.ranked.map((r) => r.candidate.providerName)).toEqual(["alpha", "alpha", "zeta"]);
    for (const s of ["cost", "speed", "quality", "balanced"] as const) {
      const a = decide([x, y, z], needs(), s);
      const b = decide([z, x, y], needs(), s);
      expect(a).toEqual(b);
    }
  });
});

describe("a limited ranking", () => {
  test("is the first places of the full ranking, ties, resting candidates and all", () => {
    // A seeded generator, so a failure can be replayed.
    let seed = 7;
    const rand = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 200; round++) {
      const n = 1 + Math.floor(rand() * 30);
      const candidates = Array.from({ length: n }, (_, i) =>
        cand(`p${Math.floor(rand() * 3)}`, `m${i}`, {
          inputPerMTok: Math.floor(rand() * 4),
          outputPerMTok: Math.floor(rand() * 4),
          quality: 60 + Math.floor(rand() * 3) * 10,
          latencyMs: 100 * (1 + Math.floor(rand() * 3)),
          unavailable: rand() < 0.2 ? "cooldown" : null,
        }),
      );
      for (const strategy of ["cost", "speed", "quality", "balanced"] as const) {
        const all = order(decide(candidates, needs(), strategy));
        for (const limit of [1, 2, 5]) {
          const some = order(decide(candidates, needs(), strategy, "chat", limit));
          expect(some).toEqual((all as string[]).slice(0, limit));
        }
      }
    }
  });
});

describe("a named model (x-gw-route on a concrete id)", () => {
  const twinA = cand("a", "same");
  const twinB = cand("b", "same");
  test("ranks first among equals, limited or not", () => {
    const unnamed = decide([twinA, twinB], needs(), "cost");
    expect(unnamed.ok && unnamed.ranked[0]!.candidate.providerName).toBe("a");
    const preferB = (c: Candidate) => c.providerName === "b";
    for (const limit of [undefined, 1, 5]) {
      const d = decide([twinA, twinB], needs(), "cost", "chat", limit, preferB);
      expect(d.ok && d.ranked[0]!.candidate.providerName).toBe("b");
    }
  });
  test("never above a better candidate", () => {
    const preferBest = (c: Candidate) => c.model === "best";
    expect(order(decide(table, needs(), "cost", "chat", undefined, preferBest))).toEqual(["cheap", "fast", "best"]);
  });
});
