/**
 * One model call through the request path after admission. Each endpoint says what
 * differs for it (how its targets are chosen, how its body is optimized and scanned,
 * how one attempt reaches a provider); the rest is the same for all: the call's stage
 * list (call-stages.ts: plan and authorize, optimize, scan), then one attempt per
 * target until one answers (fallback.ts), each with its own stage list and provider
 * call (forward.ts). The HTTP surfaces and `ai.proxy` all come through here, so every
 * way in gets the same checks. Sandbox keys take the same path: their targets are
 * answered by the simulator as an adapter (call-adapter.ts), so nothing here tells
 * them apart.
 */
import type { EmbeddingsRequest } from "../schemas/embeddings.ts";
import type { ResponsesRequest } from "../schemas/responses.ts";
import type { MessagesCountTokensRequest, MessagesRequest } from "../schemas/messages.ts";
import { openAiWire } from "../providers/openai-compatible/openai-wire.ts";
import { responsesWire } from "../providers/openai-compatible/responses-wire.ts";
import { chatNeeds } from "../routing/needs.ts";
import type { ProviderHealth } from "../state/provider-health.ts";
import type { CallInput, CallOutcome, JsonOutcome, StreamOutcome } from "./call-types.ts";
import { authorizeTarget, type ResolvedTarget } from "./authorize.ts";
import { type CallContext, type CallStage, callStages } from "./call-stages.ts";
import { type ChatBody, chatAttempt } from "./chat-call.ts";
import { messagesAttempt, messagesNeeds } from "./messages-call.ts";
import { countTokens, type TokenCount } from "./count-tokens.ts";
import { type Attempted, runAttempts } from "./fallback.ts";
import { type ForwardDeps, Forwarder } from "./forward.ts";
import type { ProviderLimitDeps } from "./provider-limit.ts";
import type { ResolveDeps } from "./resolve-provider.ts";
import { AUTO_MODEL, type RoutedPlan, type RoutePlanDeps, type RouteRequest } from "./route-plan.ts";
import type { EtlRecorder } from "./optimize-context.ts";
import type { ScanRecorder } from "../domain/scan-policy.ts";
import type { ScanCache } from "./scan-cache.ts";
import { callAdapter } from "./call-adapter.ts";
import { embeddingsAdapter } from "./embeddings-target.ts";
import {
  asResponses,
  nativeResponses,
  refuseUnpriceable,
  responsesAnswer,
  responsesNeeds,
  responsesSize,
  translatedChat,
} from "./responses-call.ts";
import { chatTexts, embeddingTexts, messagesTexts, responsesTexts } from "./scan/request-texts.ts";
import { checkTargetVocabulary, targetVocabulary } from "./scan/token-id-texts.ts";
import { startStages } from "./stages.ts";
import { refuseRefusedToolServers } from "./tool-servers.ts";
import { type HostedToolDeps, namesConfiguredServer, pointAtGateway, resolveHostedTools } from "./hosted-mcp-tools.ts";
import { NOOP_SPAN, type TraceSpan } from "../lib/tracing/trace-span.ts";
import { refuseRoutedModel } from "../services/routed-names.ts";

export type { CallInput, CallOutcome, JsonOutcome, StreamOutcome };

export interface ModelCallDeps extends ForwardDeps {
  resolve: ResolveDeps;
  health: ProviderHealth;
  limits: ProviderLimitDeps;
  /** Where the context optimizer's figures go. */
  etl?: EtlRecorder;
  /** Where what scanning found and did goes (counters, audit). */
  scans?: ScanRecorder;
  /** Verdicts kept per text (scan-cache.ts); absent: every text is scanned. */
  verdicts?: ScanCache;
  /** Responses `mcp` tools naming a configured tool server are pointed at the gateway's `/mcp` (hosted-mcp-tools.ts). */
  hostedTools?: HostedToolDeps;
}

/** A chat call as named: no routing request of its own (shared, never changed). */
const AS_NAMED: Partial<RouteRequest> = Object.freeze({});

export class ModelCalls {
  private readonly forwarder: Forwarder;
  private readonly stages: CallStage[];

  constructor(private readonly deps: ModelCallDeps) {
    this.forwarder = new Forwarder(deps);
    const route: RoutePlanDeps = { resolve: deps.resolve, settings: deps.spend.settings, health: deps.health, limits: deps.limits.counter };
    this.stages = callStages({ route, optimize: deps, scans: deps.scans, verdicts: deps.verdicts });
  }

  /**
   * Shutdown: a refused stream's background read is cut short (its call is accounted
   * with the usage seen so far), and this resolves once every stream's call is in the
   * write-behind buffer, so the final flush holds it.
   */
  stop(): Promise<void> {
    return this.forwarder.stop();
  }

  /** The shutdown's drain deadline passed: every running stream ends with its caller's terminal `stream_interrupted` event. */
  cutStreams(): number {
    return this.forwarder.cutStreams();
  }

  /** The call's own promise handed on: no async layer of its own. */
  chat(input: CallInput, request: ChatBody): Promise<CallOutcome> {
    return this.chatCall(input, request, AS_NAMED);
  }

  /**
   * `POST /api/byok/route` and `ai.route`: a `gateway/auto` chat call with the strategy
   * and task given in the request, answered with the router's decision beside the
   * completion.
   */
  async route(input: CallInput, request: ChatBody, route: Pick<RouteRequest, "strategy" | "task" | "fallback">) {
    let answered: Answered | undefined;
    const outcome = await this.chatCall(input, { ...request, model: AUTO_MODEL }, { ...route, rankAll: true }, (a) => (answered = a));
    const { plan, target } = answered!;
    return { outcome, target, routed: plan.routed! };
  }

  private chatCall(input: CallInput, request: ChatBody, route: Partial<RouteRequest>, seen?: (answered: Answered) => void) {
    return this.run(
      {
        input,
        body: request,
        route: { model: request.model, needs: () => chatNeeds(request), ...route },
        optimize: "chat",
        operation: "chat",
        texts: chatTexts,
      },
      (target, body) => chatAttempt(this.forwarder, input, target, body as ChatBody),
      seen,
    );
  }

  async messages(input: CallInput, request: MessagesRequest & Record<string, unknown>): Promise<CallOutcome> {
    await refuseRefusedToolServers(request);
    const route = { model: request.model, needs: () => messagesNeeds(request), format: "messages" as const };
    return this.run({ input, body: request, route, optimize: "messages", operation: "chat", texts: messagesTexts }, (target, body) =>
      messagesAttempt(this.forwarder, input, target, body as typeof request),
    );
  }

  /**
   * `POST /v1/responses`: planned, optimized and scanned on its own body (instructions
   * and input items), then per attempt forwarded as written to a provider that serves
   * the Responses API, or translated to chat completions for one that does not
   * (responses-call.ts). An `mcp` tool naming a configured tool server reaches it
   * through the gateway's own `/mcp` (hosted-mcp-tools.ts).
   */
  async responses(input: CallInput, request: ResponsesRequest & Record<string, unknown>): Promise<CallOutcome> {
    refuseUnpriceable(request);
    // The caller's own server URLs pass the egress policy; a named configured server becomes the gateway's `/mcp`.
    await refuseRefusedToolServers(request);
    const hosted = namesConfiguredServer(request.tools)
      ? await resolveHostedTools(request, input.scope.identity, this.deps.hostedTools)
      : null;
    const route = { model: request.model, needs: () => responsesNeeds(request) };
    const ctx = { input, body: request, route, optimize: "responses" as const, operation: "chat", texts: responsesTexts };
    return this.run(ctx, async (target, body, fallback) => {
      const native = nativeResponses(target, callAdapter(target));
      if (!native) {
        const chat = translatedChat(body, target, fallback);
        return asResponses(
          await chatAttempt(this.forwarder, input, target, chat, responsesAnswer(body)),
          body,
          this.forwarder.maxAnswerBytes,
        );
      }
      const stream = body.stream === true;
      const sent = hosted ? pointAtGateway(body, hosted, input.scope) : body;
      return this.forwarder.forward(
        input,
        target,
        native,
        () => native.responsesRequest(target, sent),
        stream,
        { wire: responsesWire },
        responsesSize(body, target),
      );
    });
  }

  /** Embeddings name one model: no routing and no fallback. */
  async embeddings(input: CallInput, request: EmbeddingsRequest & Record<string, unknown>): Promise<JsonOutcome> {
    refuseRoutedModel(request.model, "/v1/embeddings");
    // Token ids are read with the vocabulary of the first target the plan stage resolved, before the scan stage reads them.
    const catalog = this.deps.resolve.catalog;
    const texts = (body: Record<string, unknown>) => embeddingTexts(body, targetVocabulary(ctx.plan?.targets[0], catalog));
    const ctx: CallContext = { input, body: request, route: null, optimize: "embeddings", operation: "embeddings", texts };
    return this.run(ctx, (target, body) => {
      // A fallback target must read the ids in the vocabulary they were scanned in.
      if (target !== ctx.plan?.targets[0]) checkTargetVocabulary(body, targetVocabulary(ctx.plan?.targets[0], catalog), target, catalog);
      const adapter = embeddingsAdapter(target, callAdapter(target), catalog);
      return this.forwarder.forward(
        input,
        target,
        adapter,
        () => adapter.embeddingsRequest(target, body),
        false,
        { wire: openAiWire, membersOnly: true },
        { input: body.input },
      );
    }) as Promise<JsonOutcome>;
  }

  /** `count_tokens`: resolved, authorized and scanned like a call, never charged (count-tokens.ts). */
  async countTokens(input: CallInput, request: MessagesCountTokensRequest & Record<string, unknown>): Promise<TokenCount> {
    refuseRoutedModel(request.model, "count_tokens");
    return countTokens(
      {
        resolve: this.deps.resolve,
        settings: this.deps.spend.settings,
        scans: this.deps.scans,
        verdicts: this.deps.verdicts,
        upstreamTimeoutMs: this.deps.upstreamTimeoutMs,
      },
      input,
      request,
    );
  }

  /**
   * The call's stages, then one attempt per target until one answers, each with the
   * body as the stages left it; targets after the first are authorized as their turn
   * comes. The stages' afters see the answer, or nothing when the call failed. The
   * outcome alone is returned (no object a call); `seen` learns the plan and the
   * target that answered, for the caller that reports them (`route`).
   */
  private async run(
    ctx: CallContext,
    /** `fallback`: a target after the first, tried because an earlier one failed or was skipped. */
    attempt: (target: ResolvedTarget, body: Record<string, unknown>, fallback: boolean) => Promise<CallOutcome>,
    seen?: (answered: Answered) => void,
  ): Promise<CallOutcome> {
    const { scope } = ctx.input;
    scope.operation = ctx.operation;
    const trace = scope.trace ?? NOOP_SPAN;
    if (trace.recording) traceCall(trace, ctx);
    // Stages that answered at once (the usual call, its state in memory) are not awaited: no promise, no turn.
    const starting = startStages(this.stages, ctx, trace);
    const end = starting instanceof Promise ? await starting : starting;
    const plan = ctx.plan!;
    const first = plan.targets[0];
    let done: Attempted<CallOutcome>;
    try {
      done = await runAttempts(
        plan,
        this.deps.health,
        (target, n, span) => {
          if (target !== first) authorizeTarget(scope.identity, target);
          scope.attempt = n;
          scope.attemptTrace = span;
          return attempt(target, ctx.body, target !== first);
        },
        // Tracing off (the usual call): no tracing context to build.
        trace.recording ? { parent: trace, operation: ctx.operation } : undefined,
      );
    } catch (err) {
      await end(null);
      throw err;
    }
    if (done.fallbackCauses) for (const cause of done.fallbackCauses) this.deps.metrics?.fallback(cause);
    const outcome = routedOutcome(plan, done);
    try {
      await end(outcome);
    } catch (err) {
      // The call is answered and charged, but will not be delivered: a stream is cancelled so its reading ends and is accounted.
      if (outcome.type === "stream") await outcome.stream.cancel().catch(() => {});
      throw err;
    }
    seen?.({ plan, target: done.target });
    return outcome;
  }
}

/** What routed a call's answer: its plan, and the target that answered. */
interface Answered {
  plan: RoutedPlan;
  target: ResolvedTarget;
}

/** The call's span named and attributed by the GenAI conventions (`chat gpt-4o`), with the caller's organization and key ids. */
function traceCall(span: TraceSpan, ctx: CallContext): void {
  const { identity } = ctx.input.scope;
  const model = typeof ctx.body.model === "string" ? ctx.body.model : "";
  span.rename(`${ctx.operation} ${model}`);
  span.set("gen_ai.operation.name", ctx.operation);
  span.set("gen_ai.request.model", model);
  span.set("gw.org.id", identity.organization.id);
  if (identity.kind === "serviceAccount") span.set("gw.key.id", identity.key.id);
  else span.set("gw.user.id", identity.id);
}

/** The outcome with where routing sent it and how many attempts it took. */
function routedOutcome<O extends CallOutcome>(plan: RoutedPlan, done: Attempted<O>): O {
  const o = done.outcome;
  if (plan.routed) o.routedTo = `${done.target.providerName}/${done.target.model}`;
  if (plan.routed || plan.targets.length > 1) o.attempts = done.attempts;
  if (done.capSkipped) o.routeSkipped = done.capSkipped.join(", ");
  return o;
}
