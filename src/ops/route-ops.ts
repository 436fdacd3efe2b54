/**
 * Routing as operations: `ai.route` (the same request and answer as
 * `POST /api/byok/route`: the router's choice, why, the runners-up and the completion)
 * and `ai.health` (what this node has measured of each provider configuration the
 * caller may use: circuit state, latency, error rate, cooldown).
 */
import { Type } from "@sinclair/typebox";
import type { CallInput, ModelCalls } from "../pipeline/model-call.ts";
import { badRequest } from "../lib/errors.ts";
import { compileValidator } from "../lib/validator.ts";
import { routeAnswer } from "../routing/route-answer.ts";
import { STRATEGIES, TASK_TYPES } from "../routing/strategy.ts";
import { chatCompletionRequest } from "../schemas/chat-completions.ts";
import { usableProviders } from "../services/provider-access.ts";
import { defineOperation } from "./registry.ts";

/** The specification's route request; the usual chat fields (temperature, max_tokens, tools, ...) ride along. */
export const RouteParams = Type.Object({
  strategy: Type.Union(
    STRATEGIES.map((s) => Type.Literal(s)),
    { errorMessage: `must be one of ${STRATEGIES.join(", ")}` },
  ),
  messages: Type.Array(Type.Unknown(), { minItems: 1 }),
  task_type: Type.Optional(
    Type.Union(
      TASK_TYPES.map((t) => Type.Literal(t)),
      { errorMessage: `must be one of ${TASK_TYPES.join(", ")}` },
    ),
  ),
  fallback: Type.Optional(Type.Boolean()),
  model: Type.Optional(Type.Literal("gateway/auto")),
});

export const routeParams = compileValidator(RouteParams);

/** Routes one chat request and answers in the specification's shape. */
export async function routeAndAnswer(calls: ModelCalls, call: CallInput, params: Record<string, unknown>, where: string) {
  const p = routeParams.parse(params, where);
  const { strategy, task_type, fallback, ...chat } = p as typeof p & Record<string, unknown>;
  if (chat.stream === true)
    throw badRequest(`${where}.stream: a routed answer comes whole; stream through /v1/chat/completions with model "gateway/auto"`, {
      param: `${where}.stream`,
    });
  const request = chatCompletionRequest.parse({ ...chat, model: "gateway/auto" }, where);
  const started = performance.now();
  const { outcome, target, routed } = await calls.route(call, request, { strategy, task: task_type, fallback });
  const latencyMs = performance.now() - started;
  const { decision } = routed;
  const served =
    decision.ranked.find((r) => r.candidate.providerName === target.providerName && r.candidate.model === target.model) ??
    decision.ranked[0]!;
  if (outcome.type !== "json") throw badRequest(`${where}.stream: a routed answer comes whole`);
  return {
    answer: routeAnswer({
      strategy,
      reasoning: decision.reasoning,
      ranked: decision.ranked,
      served,
      completion: JSON.parse(outcome.text) as Record<string, unknown>,
      costMicros: outcome.costMicros,
      latencyMs,
    }),
    outcome,
  };
}

export const aiRoute = defineOperation({
  id: "ai.route",
  access: "call",
  contextScope: "providers",
  summary:
    "Routes a chat request by strategy (cost, speed, quality, balanced) and answers with the choice, its reasons, the alternatives and the completion.",
  params: Type.Record(Type.String(), Type.Unknown()),
  async run({ deps, call, responseHeaders }, params) {
    const { answer, outcome } = await routeAndAnswer(deps.calls, call, params, "params");
    if (responseHeaders && outcome.routedTo) responseHeaders["x-gw-moe-routed"] = outcome.routedTo;
    if (responseHeaders && outcome.priceEstimated) responseHeaders["x-gw-price"] = "estimated";
    if (responseHeaders && outcome.routeSkipped) responseHeaders["x-gw-route-skipped"] = outcome.routeSkipped;
    return answer;
  },
});

export const aiHealth = defineOperation({
  id: "ai.health",
  access: "read",
  contextScope: "providers",
  summary: "This node's view of each provider you may use: circuit state, latency, error rate and cooldown.",
  params: Type.Object({}),
  async run({ identity, deps }) {
    const providers = usableProviders(await deps.providerDirectory.get(identity.organization.id), identity);
    const circuits = new Map(deps.health.circuitsView().map((c) => [c.providerId, c]));
    const models = deps.health.modelsView();
    return {
      providers: providers.map((p) => {
        const c = circuits.get(p.record.id);
        return {
          id: p.record.id,
          name: p.record.name,
          provider: p.kind,
          state: c?.state ?? "closed",
          consecutiveFailures: c?.consecutiveFailures ?? 0,
          cooldownUntil: c?.retryAt ?? null,
          models: models.filter((m) => m.providerId === p.record.id).map(({ providerId: _, ...m }) => m),
        };
      }),
    };
  },
});

export const routeOperations = [aiRoute, aiHealth];
