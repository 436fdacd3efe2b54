/**
 * One model call through the request path after admission: plan the targets (stage 4:
 * the named model and its fallbacks, or the router's ranking for `gateway/auto`),
 * scan (stage 6), then one attempt per target until one answers (fallback.ts): each
 * attempt is authorized (stage 5) and forwarded (stages 7 to 10, forward.ts) again.
 * The HTTP surfaces and `ai.proxy` all come through here, so every way in gets the
 * same checks. A caller's format and the provider's meet here: the same format passes
 * through untouched; a chat-completions caller of a messages-format provider is
 * translated both ways. Sandbox keys take the same path: their targets are answered
 * by the simulator as an adapter (call-adapter.ts), so nothing here tells them apart.
 */
import type { ChatCompletionRequest } from "../schemas/chat-completions.ts";
import type { EmbeddingsRequest } from "../schemas/embeddings.ts";
import type { ResponsesRequest } from "../schemas/responses.ts";
import type { MessagesCountTokensRequest, MessagesRequest } from "../schemas/messages.ts";
import { ApiError } from "../lib/errors.ts";
import { canEmbed } from "../providers/adapter.ts";
import { messagesWire } from "../providers/anthropic/messages-wire.ts";
import { openAiWire } from "../providers/openai-compatible/openai-wire.ts";
import { responsesWire } from "../providers/openai-compatible/responses-wire.ts";
import type { Target } from "../providers/target.ts";
import { chatNeeds, type RouteNeeds } from "../routing/needs.ts";
import type { ProviderHealth } from "../state/provider-health.ts";
import { chatToMessagesRequest } from "../translate/chat-to-messages.ts";
import { messagesStreamToChat, messagesToChatCompletion } from "../translate/messages-to-chat.ts";
import type { CallInput, CallOutcome, JsonOutcome, StreamOutcome } from "./call-types.ts";
import { authorizeTarget, type ResolvedTarget } from "./authorize.ts";
import { countTokens, type TokenCount } from "./count-tokens.ts";
import { type Attempted, runAttempts } from "./fallback.ts";
import { type ForwardDeps, Forwarder, type Route } from "./forward.ts";
import type { ProviderLimitDeps } from "./provider-limit.ts";
import type { CallSize } from "./reserve-spend.ts";
import type { ResolveDeps } from "./resolve-provider.ts";
import { AUTO_MODEL, planRoute, type RoutedPlan, type RoutePlanDeps, type RouteRequest } from "./route-plan.ts";
import { type EtlRecorder, optimizeContext, optimizeEmbeddings, type OptimizeFormat } from "./optimize-context.ts";
import { callAdapter } from "./call-adapter.ts";
import { resolverFor } from "./sandbox-target.ts";
import { asResponses, nativeResponses, responsesNeeds, responsesSize, translatedChat } from "./responses-call.ts";
import { chatTexts, embeddingTexts, messagesTexts, responsesTexts, type TextSlot } from "./scan/request-texts.ts";
import { scanRequest } from "./security-scan.ts";

export type { CallInput, CallOutcome, JsonOutcome, StreamOutcome };

export interface ModelCallDeps extends ForwardDeps {
  resolve: ResolveDeps;
  health: ProviderHealth;
  limits: ProviderLimitDeps;
  /** Where the context optimizer's figures go. */
  etl?: EtlRecorder;
}

/** A stream's usage-only chunk (`choices: []` with `usage`), which the gateway asked for on the caller's behalf. */
function isUsageOnlyChunk(data: string): boolean {
  if (!data.includes('"usage"')) return false;
  try {
    const c = JSON.parse(data) as { choices?: unknown[]; usage?: unknown };
    return Array.isArray(c.choices) && c.choices.length === 0 && c.usage != null;
  } catch {
    return false;
  }
}

export class ModelCalls {
  private readonly forwarder: Forwarder;
  private readonly routeDeps: RoutePlanDeps;

  constructor(private readonly deps: ModelCallDeps) {
    this.forwarder = new Forwarder(deps);
    this.routeDeps = { resolve: deps.resolve, settings: deps.spend.settings, health: deps.health, limits: deps.limits.counter };
  }

  /**
   * Shutdown: a refused stream's background read is cut short (its call is accounted
   * with the usage seen so far), and this resolves once every stream's call is in the
   * write-behind buffer, so the final flush holds it.
   */
  stop(): Promise<void> {
    return this.forwarder.stop();
  }

  async chat(input: CallInput, request: ChatCompletionRequest & Record<string, unknown>): Promise<CallOutcome> {
    return (await this.chatAttempts(input, request, {})).outcome;
  }

  /**
   * `POST /api/byok/route` and `ai.route`: a `gateway/auto` chat call with the strategy
   * and task given in the request, answered with the router's decision beside the
   * completion.
   */
  async route(
    input: CallInput,
    request: ChatCompletionRequest & Record<string, unknown>,
    route: Pick<RouteRequest, "strategy" | "task" | "fallback">,
  ) {
    const { plan, outcome, target } = await this.chatAttempts(input, { ...request, model: AUTO_MODEL }, route);
    return { outcome, target, routed: plan.routed! };
  }

  private async chatAttempts(input: CallInput, request: ChatCompletionRequest & Record<string, unknown>, route: Partial<RouteRequest>) {
    const plan = await this.plan(input, { model: request.model, needs: () => chatNeeds(request), ...route });
    const optimized = await this.optimize(input, request, "chat", plan);
    const scanned = await this.scan(input, optimized.body, chatTexts);
    const body = scanned.body as typeof request;
    const done = await this.attempts(input, plan, (target) => this.chatTo(input, target, body));
    const outcome = await optimized.settle(withSecurity(routedOutcome(plan, done), scanned.header));
    return { plan, target: done.target, outcome };
  }

  private async chatTo(input: CallInput, target: Target, body: ChatCompletionRequest & Record<string, unknown>): Promise<CallOutcome> {
    const adapter = callAdapter(target);
    const stream = body.stream === true;
    // Usage is always asked for so the call can be priced; the extra chunk is removed again if the caller did not ask.
    const callerWantsUsage = body.stream_options?.include_usage === true;
    const keep = !stream || callerWantsUsage ? undefined : (data: string) => !isUsageOnlyChunk(data);
    if (adapter.wire === "chat") {
      const upstreamBody =
        stream && !callerWantsUsage ? { ...body, stream_options: { ...body.stream_options, include_usage: true } } : body;
      return this.forwarder.forward(
        input,
        target,
        adapter,
        () => adapter.request(target, upstreamBody, { stream, headers: input.headers }),
        stream,
        { wire: openAiWire, keep },
        chatSize(body),
      );
    }
    const translated = chatToMessagesRequest(body);
    const route: Route = {
      // Translated streams are read after translation, as chat chunks.
      wire: stream ? openAiWire : messagesWire,
      reshape: messagesToChatCompletion,
      restream: messagesStreamToChat,
      keep,
    };
    return this.forwarder.forward(
      input,
      target,
      adapter,
      () => adapter.request(target, translated, { stream, headers: input.headers }),
      stream,
      route,
      chatSize(body),
    );
  }

  async messages(input: CallInput, request: MessagesRequest & Record<string, unknown>): Promise<CallOutcome> {
    const plan = await this.plan(input, { model: request.model, needs: () => messagesNeeds(request), format: "messages" });
    const optimized = await this.optimize(input, request, "messages", plan);
    const scanned = await this.scan(input, optimized.body, messagesTexts);
    const body = scanned.body as typeof request;
    const size = { messages: [{ content: body.system }, ...body.messages], maxTokens: body.max_tokens };
    const done = await this.attempts(input, plan, async (target) => {
      const adapter = callAdapter(target);
      if (adapter.wire !== "messages") {
        throw new ApiError(
          400,
          "invalid_request",
          `${target.model} is served by ${target.providerName} in the chat-completions format; call /v1/chat/completions for it.`,
          { param: "model" },
        );
      }
      const stream = body.stream === true;
      return this.forwarder.forward(
        input,
        target,
        adapter,
        () => adapter.request(target, body, { stream, headers: input.headers }),
        stream,
        { wire: messagesWire },
        size,
      );
    });
    return optimized.settle(withSecurity(routedOutcome(plan, done), scanned.header));
  }

  /**
   * `POST /v1/responses`: planned, optimized and scanned on its own body (instructions
   * and input items), then per attempt forwarded as written to a provider that serves
   * the Responses API, or translated to chat completions for one that does not
   * (responses-call.ts).
   */
  async responses(input: CallInput, request: ResponsesRequest & Record<string, unknown>): Promise<CallOutcome> {
    const plan = await this.plan(input, { model: request.model, needs: () => responsesNeeds(request) });
    const optimized = await this.optimize(input, request, "responses", plan);
    const scanned = await this.scan(input, optimized.body, responsesTexts);
    const body = scanned.body as typeof request;
    const done = await this.attempts(input, plan, async (target) => {
      const adapter = callAdapter(target);
      const native = nativeResponses(target, adapter);
      if (!native) return asResponses(await this.chatTo(input, target, translatedChat(body)), body);
      const stream = body.stream === true;
      return this.forwarder.forward(
        input,
        target,
        native,
        () => native.responsesRequest(target, body),
        stream,
        { wire: responsesWire },
        responsesSize(body),
      );
    });
    return optimized.settle(withSecurity(routedOutcome(plan, done), scanned.header));
  }

  async embeddings(input: CallInput, request: EmbeddingsRequest & Record<string, unknown>): Promise<JsonOutcome> {
    const target = await this.resolver(input)(this.deps.resolve, input.scope.identity, request.model, input.headers);
    authorizeTarget(input.scope.identity, target);
    const optimized = await optimizeEmbeddings(this.deps, input, request, target);
    const scanned = await this.scan(input, optimized.body, embeddingTexts);
    const body = scanned.body as typeof request;
    const adapter = callAdapter(target);
    if (!target.info.embeddings || adapter.wire !== "chat" || !canEmbed(adapter)) {
      throw new ApiError(
        400,
        "wrong_endpoint",
        `${target.info.displayName} (${target.providerName}) has no embeddings API; use an embeddings model of another provider.`,
        { param: "model" },
      );
    }
    const outcome = (await this.forwarder.forward(
      input,
      target,
      adapter,
      () => adapter.embeddingsRequest(target, body),
      false,
      { wire: openAiWire, membersOnly: true },
      { input: body.input },
    )) as JsonOutcome;
    return optimized.settle(withSecurity(outcome, scanned.header));
  }

  /** `count_tokens`: resolved, authorized and scanned like a call, never charged (count-tokens.ts). */
  countTokens(input: CallInput, request: MessagesCountTokensRequest & Record<string, unknown>): Promise<TokenCount> {
    return countTokens(
      { resolve: this.deps.resolve, settings: this.deps.spend.settings, upstreamTimeoutMs: this.deps.upstreamTimeoutMs },
      input,
      request,
    );
  }

  /** Before stage 6, when the call or its organization asks: the optimized body (optimize-context.ts). */
  private optimize(input: CallInput, body: Record<string, unknown>, format: OptimizeFormat, plan: RoutedPlan) {
    return optimizeContext(this.deps, input, body, format, plan.targets[0]!);
  }

  /** Stage 6: scan every text the call sends, with the organization's PII action. */
  private async scan(input: CallInput, body: Record<string, unknown>, texts: (body: Record<string, unknown>) => TextSlot[]) {
    const settings = await this.deps.spend.settings.get(input.scope.identity.organization.id);
    return scanRequest(body, texts, settings.piiAction);
  }

  /**
   * Stages 4 and 5: the targets to try, the first authorized now (geography, tier), so
   * a refusal comes before scanning as it always did. Sandbox calls resolve and are
   * authorized the same way, so they fail the same way; they only need no provider
   * key, since the simulator answers them after these checks.
   */
  private async plan(input: CallInput, req: RouteRequest): Promise<RoutedPlan> {
    const plan = await planRoute(this.routeDeps, this.resolver(input), input.scope.identity, input.headers, req);
    authorizeTarget(input.scope.identity, plan.targets[0]!);
    return plan;
  }

  private resolver(input: CallInput) {
    return resolverFor(input.scope.identity);
  }

  /** One attempt per target until one answers; targets after the first are authorized as their turn comes. */
  private attempts<O extends CallOutcome>(
    input: CallInput,
    plan: RoutedPlan,
    attempt: (target: ResolvedTarget) => Promise<O>,
  ): Promise<Attempted<O>> {
    const first = plan.targets[0];
    return runAttempts(plan, this.deps.health, (target, n) => {
      if (target !== first) authorizeTarget(input.scope.identity, target);
      input.scope.attempt = n;
      return attempt(target);
    });
  }
}

/** The outcome with where routing sent it and how many attempts it took. */
function routedOutcome<O extends CallOutcome>(plan: RoutedPlan, done: Attempted<O>): O {
  const o = done.outcome;
  if (plan.routed) o.routedTo = `${done.target.providerName}/${done.target.model}`;
  if (plan.routed || plan.targets.length > 1) o.attempts = done.attempts;
  return o;
}

function messagesNeeds(body: MessagesRequest): RouteNeeds {
  const needs = chatNeeds({
    messages: [{ content: body.system }, ...body.messages],
    tools: body.tools as unknown[] | undefined,
    max_tokens: body.max_tokens,
  });
  return needs;
}

/** The outcome with what scanning found: set on the outcome the call made (each call makes its own), not on a copy. */
function withSecurity<O extends CallOutcome>(outcome: O, header: string): O {
  outcome.security = header;
  return outcome;
}

function chatSize(body: ChatCompletionRequest): CallSize {
  return { messages: body.messages, maxTokens: body.max_tokens ?? body.max_completion_tokens };
}
