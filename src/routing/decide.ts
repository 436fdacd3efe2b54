/**
 * The router's decision, pure: which candidates can serve the request, in which order
 * the strategy prefers them, with a score and the sentence that explains the choice.
 * The order is the fallback order. Ties break on the model the caller named (when
 * `x-gw-route` routes a named model), then quality, then price, then latency, then
 * provider and model names, so the same table always gives the same answer.
 */
import type { Candidate } from "./candidate.ts";
import { fitsWindow, type RouteNeeds } from "./needs.ts";
import { MIN_QUALITY, type Strategy, type TaskType, weightsFor } from "./strategy.ts";

export interface ScoredCandidate {
  candidate: Candidate;
  /** Integer micro-dollars for the estimated prompt and the expected answer. */
  estimatedCostMicros: number;
  /** Milliseconds, error rate included (a failing provider is slower to an answer). */
  estimatedLatencyMs: number;
  /** 0-1, higher is better, under the strategy's weights. */
  score: number;
}

/** Why no candidate remains, for `moe_routing_unavailable`. */
export type NoRoute = "no_provider" | "not_capable";

export type Decision = { ok: true; ranked: ScoredCandidate[]; reasoning: string } | { ok: false; reason: NoRoute; message: string };

/** Tokens assumed for an answer when the caller sets no maximum. */
export const DEFAULT_ANSWER_TOKENS = 512;

/** Why a candidate cannot serve the request, or null. */
export function incapability(c: Candidate, needs: RouteNeeds, task: TaskType): string | null {
  if (c.capabilities.embeddings) return "an embeddings model";
  if (needs.tools && !c.capabilities.tools) return "no tool calling";
  if (needs.vision && !c.capabilities.vision) return "no image input";
  if (needs.json && !c.capabilities.json) return "no JSON mode";
  if (needs.maxTokens !== null && c.maxOutputTokens > 0 && needs.maxTokens > c.maxOutputTokens) return "max_tokens above its output limit";
  if (!fitsWindow(needs, c.contextWindow)) return "the prompt does not fit its context window";
  if (c.quality < MIN_QUALITY[task]) return `quality below ${MIN_QUALITY[task]} for ${task}`;
  return null;
}

function expectedCostMicros(c: Candidate, needs: RouteNeeds): number {
  const answer = needs.maxTokens ?? Math.min(DEFAULT_ANSWER_TOKENS, c.maxOutputTokens || DEFAULT_ANSWER_TOKENS);
  return Math.round(needs.promptTokens * c.inputPerMTok + answer * c.outputPerMTok);
}

function expectedLatencyMs(c: Candidate): number {
  // A call that fails is retried elsewhere: its time is mostly lost, so errors stretch the expectation.
  return c.latencyMs * (1 + 2 * Math.min(1, Math.max(0, c.errorRate)));
}

/** 1 for the best value, 0 for the worst; 1 when every value is the same. */
function normalized(v: number, min: number, max: number, lowerIsBetter: boolean): number {
  if (max === min) return 1;
  return lowerIsBetter ? (max - v) / (max - min) : (v - min) / (max - min);
}

/** The candidate the caller named, which ranks first among equals. */
export type Preferred = (c: Candidate) => boolean;

function tieBreak(a: ScoredCandidate, b: ScoredCandidate, prefer?: Preferred): number {
  return (
    b.score - a.score ||
    (prefer ? Number(prefer(b.candidate)) - Number(prefer(a.candidate)) : 0) ||
    b.candidate.quality - a.candidate.quality ||
    a.estimatedCostMicros - b.estimatedCostMicros ||
    a.estimatedLatencyMs - b.estimatedLatencyMs ||
    a.candidate.providerName.localeCompare(b.candidate.providerName) ||
    a.candidate.model.localeCompare(b.candidate.model)
  );
}

function usd(micros: number): string {
  return `$${(micros / 1e6).toFixed(6).replace(/0+$/, "").replace(/\.$/, "")}`;
}

function explain(strategy: Strategy, best: ScoredCandidate, runnerUp: ScoredCandidate | undefined): string {
  const name = `${best.candidate.providerName}/${best.candidate.model}`;
  const figures = `estimated ${usd(best.estimatedCostMicros)}, ${Math.round(best.estimatedLatencyMs)} ms, quality ${best.candidate.quality}`;
  const against = runnerUp ? ` against ${runnerUp.candidate.providerName}/${runnerUp.candidate.model}` : "";
  switch (strategy) {
    case "cost":
      return `${name} is the cheapest capable model (${figures})${runnerUp ? `${against} at ${usd(runnerUp.estimatedCostMicros)}` : ""}.`;
    case "speed":
      return `${name} is the fastest capable model (${figures})${runnerUp ? `${against} at ${Math.round(runnerUp.estimatedLatencyMs)} ms` : ""}.`;
    case "quality":
      return `${name} has the highest quality score of the capable models (${figures})${runnerUp ? `${against} at ${runnerUp.candidate.quality}` : ""}.`;
    case "balanced":
      return `${name} has the best balance of cost, speed and quality (score ${best.score.toFixed(3)}; ${figures})${runnerUp ? `${against} at ${runnerUp.score.toFixed(3)}` : ""}.`;
  }
}

/** Inserts `s` into `top` (kept in tie-break order, at most `limit` long) where it belongs; nothing when a full list ranks it last. */
function keepBest(top: ScoredCandidate[], s: ScoredCandidate, limit: number, prefer: Preferred | undefined): void {
  if (top.length === limit) {
    if (tieBreak(s, top[limit - 1]!, prefer) >= 0) return;
    top.pop();
  }
  let i = top.length;
  while (i > 0 && tieBreak(s, top[i - 1]!, prefer) < 0) i--;
  top.splice(i, 0, s);
}

const scratch = {
  capable: [] as Candidate[],
  costs: new Float64Array(64),
  latencies: new Float64Array(64),
  grow(n: number) {
    this.costs = new Float64Array(n);
    this.latencies = new Float64Array(n);
  },
};

/**
 * Ranks the candidates for a request. Candidates cooling down or at a limit go after
 * every available one (still listed, so a request is served when all are down and
 * the probe of a cooled-down provider can happen); incapable ones are dropped. With a
 * `limit`, only that many are ranked (the targets a call may try), each kept in order
 * as it is scored instead of sorting them all: this runs on every routed call, while
 * the route answer, which lists every alternative, asks for them all.
 */
export function decide(
  candidates: readonly Candidate[],
  needs: RouteNeeds,
  strategy: Strategy,
  task: TaskType = "chat",
  limit = Number.POSITIVE_INFINITY,
  prefer?: Preferred,
): Decision {
  if (candidates.length === 0)
    return {
      ok: false,
      reason: "no_provider",
      message:
        "No provider you may use (configured, and authorized for your organization's geography and tier) offers a model for this endpoint to route to.",
    };
  // One pass per step, into scratch arrays kept between calls (nothing here awaits, so no two calls share them).
  const capable = scratch.capable;
  capable.length = 0;
  if (scratch.costs.length < candidates.length) scratch.grow(candidates.length);
  const { costs, latencies } = scratch;
  let minCost = Infinity;
  let maxCost = -Infinity;
  let minLatency = Infinity;
  let maxLatency = -Infinity;
  let minQuality = Infinity;
  let maxQuality = -Infinity;
  for (const c of candidates) {
    if (incapability(c, needs, task) !== null) continue;
    const cost = expectedCostMicros(c, needs);
    const latency = expectedLatencyMs(c);
    costs[capable.length] = cost;
    latencies[capable.length] = latency;
    capable.push(c);
    if (cost < minCost) minCost = cost;
    if (cost > maxCost) maxCost = cost;
    if (latency < minLatency) minLatency = latency;
    if (latency > maxLatency) maxLatency = latency;
    if (c.quality < minQuality) minQuality = c.quality;
    if (c.quality > maxQuality) maxQuality = c.quality;
  }
  if (capable.length === 0) {
    // Counted only here: most tables hold a model some calls cannot use (embeddings models, for one).
    const refusals = new Map<string, number>();
    for (const c of candidates) {
      const why = incapability(c, needs, task)!;
      refusals.set(why, (refusals.get(why) ?? 0) + 1);
    }
    const reasons = [...refusals].map(([why, n]) => `${n} with ${why}`).join(", ");
    return {
      ok: false,
      reason: "not_capable",
      message: `None of the ${candidates.length} candidate models can serve this request (${reasons}).`,
    };
  }
  const w = weightsFor(strategy, task);
  const available: ScoredCandidate[] = [];
  const resting: ScoredCandidate[] = [];
  const ranksAll = limit === Number.POSITIVE_INFINITY;
  for (let i = 0; i < capable.length; i++) {
    const c = capable[i]!;
    const score =
      w.cost * normalized(costs[i]!, minCost, maxCost, true) +
      w.speed * normalized(latencies[i]!, minLatency, maxLatency, true) +
      w.quality * normalized(c.quality, minQuality, maxQuality, false);
    const list = c.unavailable === null ? available : resting;
    // A full list's last has the lowest score kept: a lower one ranks after it whatever the ties, so it is not even built.
    if (!ranksAll && list.length === limit && score < list[limit - 1]!.score) continue;
    const s: ScoredCandidate = { candidate: c, estimatedCostMicros: costs[i]!, estimatedLatencyMs: latencies[i]!, score };
    if (ranksAll) list.push(s);
    else keepBest(list, s, limit, prefer);
  }
  if (ranksAll) {
    const order = (a: ScoredCandidate, b: ScoredCandidate) => tieBreak(a, b, prefer);
    available.sort(order);
    resting.sort(order);
  }
  const ranked = resting.length === 0 ? available : available.concat(resting).slice(0, limit);
  // The sentence is for the route answer only: written when read, not on every routed call.
  let reasoning: string | undefined;
  return {
    ok: true,
    ranked,
    get reasoning() {
      return (reasoning ??= explain(strategy, ranked[0]!, ranked[1]));
    },
  };
}
