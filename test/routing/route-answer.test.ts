import { expect, test } from "bun:test";
import type { Candidate } from "../../src/routing/candidate.ts";
import { decide } from "../../src/routing/decide.ts";
import { routeAnswer } from "../../src/routing/route-answer.ts";

const caps = { tools: true, vision: true, json: true, embeddings: false };
const c = (name: string, model: string, inputPerMTok: number, quality: number): Candidate => ({
  providerId: `p-${name}`,
  providerName: name,
  model,
  inputPerMTok,
  outputPerMTok: inputPerMTok * 4,
  contextWindow: 100_000,
  maxOutputTokens: 10_000,
  capabilities: caps,
  quality,
  latencyMs: 500,
  errorRate: 0,
  unavailable: null,
});

test("every field of the specification's route answer, with the right types", () => {
  const d = decide(
    [c("a", "cheap", 0.1, 70), c("b", "dear", 10, 95)],
    { tools: false, vision: false, json: false, promptTokens: 1000, maxTokens: 100 },
    "cost",
  );
  if (!d.ok) throw new Error(d.message);
  const completion = {
    id: "chatcmpl-1",
    object: "chat.completion",
    choices: [],
    usage: { prompt_tokens: 1000, completion_tokens: 50, total_tokens: 1050 },
  };
  const answer = routeAnswer({
    strategy: "cost",
    reasoning: d.reasoning,
    ranked: d.ranked,
    served: d.ranked[0]!,
    completion,
    costMicros: 120,
    latencyMs: 321.7,
  });
  expect(answer).toEqual({
    selectedProvider: "a",
    selectedModel: "cheap",
    strategy: "cost",
    reasoning: d.reasoning,
    alternativeProviders: [{ provider: "b", model: "dear", estimatedCost: 0.014, estimatedLatency: 500, score: 0 }],
    response: { ...completion, estimated_cost: 0.00012 },
    performanceMetrics: { latency: 322, costSavings: 0.01388, qualityScore: 70 },
  });
});

test("after fallback the answering candidate is the selection and the first one an alternative", () => {
  const d = decide(
    [c("a", "cheap", 0.1, 70), c("b", "dear", 10, 95)],
    { tools: false, vision: false, json: false, promptTokens: 10, maxTokens: 10 },
    "cost",
  );
  if (!d.ok) throw new Error(d.message);
  const answer = routeAnswer({
    strategy: "cost",
    reasoning: d.reasoning,
    ranked: d.ranked,
    served: d.ranked[1]!,
    completion: {},
    costMicros: 500,
    latencyMs: 1,
  });
  expect(answer.selectedModel).toBe("dear");
  // The sentence explains the first choice, then says it is not the one that answered.
  expect(answer.reasoning).toBe(
    `${d.reasoning} a/cheap did not answer (passed over for the spend cap, or failed), so b/dear, next in rank, did.`,
  );
  expect(answer.alternativeProviders.map((a) => a.model)).toEqual(["cheap"]);
  expect(answer.performanceMetrics.costSavings).toBe(0);
});
