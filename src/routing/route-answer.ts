/**
 * The answer of `POST /api/byok/route` (and `ai.route`), in the specification's shape:
 * the choice, the sentence that explains it, the runners-up with their estimates and
 * scores, the completion itself with its cost, and what the choice saved against the
 * most expensive capable candidate. Money leaves as US dollars (numbers), latency as
 * milliseconds.
 */
import type { ScoredCandidate } from "./decide.ts";
import type { Strategy } from "./strategy.ts";

/** How many runners-up the answer lists. */
export const ALTERNATIVES_SHOWN = 10;

export interface RouteAnswerInput {
  strategy: Strategy;
  reasoning: string;
  ranked: readonly ScoredCandidate[];
  /** The candidate that answered (the first, or a later one after fallback). */
  served: ScoredCandidate;
  /** The provider's completion, as the caller would have received it. */
  completion: Record<string, unknown>;
  costMicros: number;
  latencyMs: number;
}

const usd = (micros: number) => micros / 1e6;

/** The sentence's end when the router's first choice did not answer (a spend cap passed over it, or it failed). */
const afterFirst = (first: ScoredCandidate, served: ScoredCandidate): string =>
  `${first.candidate.providerName}/${first.candidate.model} did not answer (passed over for the spend cap, or failed), so ${served.candidate.providerName}/${served.candidate.model}, next in rank, did.`;

export function routeAnswer(input: RouteAnswerInput) {
  const { served, ranked } = input;
  const priciest = Math.max(...ranked.map((r) => r.estimatedCostMicros));
  return {
    selectedProvider: served.candidate.providerName,
    selectedModel: served.candidate.model,
    strategy: input.strategy,
    reasoning: served === ranked[0] ? input.reasoning : `${input.reasoning} ${afterFirst(ranked[0]!, served)}`,
    alternativeProviders: ranked
      .filter((r) => r !== served)
      .slice(0, ALTERNATIVES_SHOWN)
      .map((r) => ({
        provider: r.candidate.providerName,
        model: r.candidate.model,
        estimatedCost: usd(r.estimatedCostMicros),
        estimatedLatency: Math.round(r.estimatedLatencyMs),
        score: Math.round(r.score * 1000) / 1000,
      })),
    response: { ...input.completion, estimated_cost: usd(input.costMicros) },
    performanceMetrics: {
      latency: Math.round(input.latencyMs),
      costSavings: usd(Math.max(0, priciest - input.costMicros)),
      qualityScore: served.candidate.quality,
    },
  };
}
