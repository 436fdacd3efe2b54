/**
 * The router's own CPU for one decision over 50 candidates (the budget:
 * routing adds at most 3 µs of CPU per request over a named model), split into the
 * pure decision (`decide`) and the needs read from the body (`chatNeeds`, which
 * estimates the prompt's tokens). The end-to-end cost, the same call routed and
 * named on one gateway in alternating rounds, is bench/routing-gap.bench.ts.
 *
 *   bun bench/routing.bench.ts [--quick]
 */
import { decide } from "../src/routing/decide.ts";
import type { Candidate } from "../src/routing/candidate.ts";
import { chatNeeds } from "../src/routing/needs.ts";
import { loadCatalog } from "../src/providers/catalog/catalog.ts";

export interface RoutingResult {
  candidates: number;
  /** Microseconds of CPU per `decide` call (balanced strategy). */
  decideMicros: number;
  /** Microseconds of CPU per `chatNeeds` on a 1 KB prompt. */
  needsMicros: number;
}

const catalog = loadCatalog(null);

function table(n: number): Candidate[] {
  const models = catalog.models.filter((m) => !m.capabilities.embeddings);
  return Array.from({ length: n }, (_, i) => {
    const m = models[i % models.length]!;
    return {
      providerId: `prv_${i % 5}`,
      providerName: `p${i % 5}`,
      model: m.id,
      inputPerMTok: m.inputPerMTok,
      outputPerMTok: m.outputPerMTok,
      contextWindow: m.contextWindow,
      maxOutputTokens: m.maxOutputTokens,
      capabilities: m.capabilities,
      quality: m.quality,
      latencyMs: m.latencyMs,
      errorRate: 0,
      unavailable: null,
    };
  });
}

function cpuPerCall(call: () => unknown, iterations: number): number {
  const before = process.cpuUsage();
  for (let i = 0; i < iterations; i++) call();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / iterations;
}

export function runRoutingBench(quick = false): RoutingResult {
  const iterations = quick ? 2_000 : 100_000;
  const candidates = table(50);
  const body = { messages: [{ role: "user", content: "word ".repeat(205) }], max_tokens: 100 };
  const needs = chatNeeds(body);
  for (let i = 0; i < Math.min(10_000, iterations); i++) decide(candidates, needs, "balanced");
  return {
    candidates: candidates.length,
    decideMicros: cpuPerCall(() => decide(candidates, needs, "balanced"), iterations),
    needsMicros: cpuPerCall(() => chatNeeds(body), iterations),
  };
}

if (import.meta.main) console.log(runRoutingBench(process.argv.includes("--quick")));
