/**
 * One model call through the request path after admission: resolve the provider
 * (stage 4), forward (stage 8), check the answering model (stage 9) and account
 * (stage 10). Policy stages slot in between resolution and forwarding. The HTTP
 * surfaces and `ai.proxy` all come through here, so every way in gets the same
 * checks. A caller's format and the provider's meet here: the same format passes
 * through untouched; a chat-completions caller of a messages-format provider is
 * translated both ways.
 */
import type { ChatCompletionRequest } from "../schemas/chat-completions.ts";
import type { EmbeddingsRequest } from "../schemas/embeddings.ts";
import type { MessagesCountTokensRequest, MessagesRequest } from "../schemas/messages.ts";
import { ApiError, toApiError } from "../lib/errors.ts";
import { jsonObjectMembers } from "../lib/json-members.ts";
import { type SseTapOptions, sseTapSource } from "../lib/sse.ts";
import { canEmbed, type ProviderAdapter, type UpstreamRequest } from "../providers/adapter.ts";
import { messagesWire } from "../providers/anthropic/messages-wire.ts";
import { openAiWire } from "../providers/openai-compatible/openai-wire.ts";
import { adapterFor } from "../providers/registry.ts";
import type { Target } from "../providers/target.ts";
import type { ProviderRateUsage } from "../state/provider-rate-usage.ts";
import { sendUpstream, type UpstreamResponse, upstreamFailure } from "../providers/upstream.ts";
import { type CallUsage, emptyUsage, type WireFormat } from "../providers/wire-format.ts";
import { chatToMessagesRequest } from "../translate/chat-to-messages.ts";
import { messagesStreamToChat, messagesToChatCompletion } from "../translate/messages-to-chat.ts";
import type { Accountant } from "./account.ts";
import type { CallInput, CallOutcome, JsonOutcome, StreamOutcome } from "./call-types.ts";
import { authorizeTarget } from "./authorize.ts";
import { countTokens, type TokenCount } from "./count-tokens.ts";
import { type CallSize, estimatedPromptTokens, reserveSpend, type SpendDeps } from "./reserve-spend.ts";
import type { Reservation } from "../state/spend-ledger.ts";
import { type ResolveDeps, resolveTarget } from "./resolve-provider.ts";
import { isSandbox, sandboxChat, sandboxEmbeddings, sandboxMessages } from "./sandbox.ts";
import { sandboxTarget } from "./sandbox-target.ts";
import { chatTexts, embeddingTexts, messagesTexts, type TextSlot } from "./scan/request-texts.ts";
import { scanRequest } from "./security-scan.ts";
import { isSameModel } from "./substitution.ts";

export type { CallInput, CallOutcome, JsonOutcome, StreamOutcome };

export interface ModelCallDeps {
  resolve: ResolveDeps;
  spend: SpendDeps;
  accountant: Accountant;
  upstreamTimeoutMs: number;
  /** Counts what each provider configuration was sent and keeps the limits it reports (rate-limit status). */
  rateUsage?: ProviderRateUsage;
}

/** How one call travels: the wire format read on the way back, and optional reshaping for a caller of another format. */
interface Route {
  wire: WireFormat;
  /** Non-stream: the provider's body as the caller's format. */
  reshape?: (body: Record<string, unknown>) => Record<string, unknown>;
  /**
   * Non-stream, not reshaped: the body is read for the wire's members only, not parsed
   * whole (embeddings: tens of kilobytes of numbers the gateway relays unread).
   */
  membersOnly?: boolean;
  /** Stream: the provider's SSE as the caller's format. */
  restream?: () => TransformStream<Uint8Array, Uint8Array>;
  /** Stream: events to drop before the caller sees them. */
  keep?: (data: string) => boolean;
}

/** A stream that ended before its last event: the client left, or the provider cut it. */
const STREAM_INTERRUPTED = new ApiError(499, "stream_interrupted", "The stream ended before the answer was complete.");

function secretsOf(t: Target): string[] {
  return t.credentials.type === "api-key" ? [t.credentials.apiKey] : [t.credentials.secretAccessKey, t.credentials.sessionToken ?? ""];
}

/** A whole answer's body: null unless it is a JSON object. */
function parseObject(text: string): Record<string, unknown> | null {
  try {
    const body: unknown = JSON.parse(text);
    return typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
  } catch {
    return null;
  }
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
  /** Aborted at shutdown: ends the background reads of refused streams at once. */
  private readonly closing = new AbortController();
  /** Streams whose call is not accounted yet, each settled once its usage event is recorded. */
  private readonly unaccounted = new Set<Promise<void>>();

  constructor(private readonly deps: ModelCallDeps) {}

  /**
   * Shutdown: a refused stream's background read is cut short (its call is accounted
   * with the usage seen so far), and this resolves once every stream's call is in the
   * write-behind buffer, so the final flush holds it.
   */
  async stop(): Promise<void> {
    this.closing.abort();
    await Promise.allSettled([...this.unaccounted]);
  }

  async chat(input: CallInput, request: ChatCompletionRequest & Record<string, unknown>): Promise<CallOutcome> {
    const target = await this.target(input, request.model);
    const scanned = await this.scan(input, request, chatTexts);
    const body = scanned.body as typeof request;
    const outcome = isSandbox(input.scope.identity) ? await sandboxChat(input, body, this.deps.accountant) : await this.chatTo(input, target, body);
    return withSecurity(outcome, scanned.header);
  }

  private async chatTo(input: CallInput, target: Target, body: ChatCompletionRequest & Record<string, unknown>): Promise<CallOutcome> {
    const adapter = adapterFor(target.format);
    const stream = body.stream === true;
    // Usage is always asked for so the call can be priced; the extra chunk is removed again if the caller did not ask.
    const callerWantsUsage = body.stream_options?.include_usage === true;
    const keep = !stream || callerWantsUsage ? undefined : (data: string) => !isUsageOnlyChunk(data);
    if (adapter.wire === "chat") {
      const upstreamBody = stream && !callerWantsUsage ? { ...body, stream_options: { ...body.stream_options, include_usage: true } } : body;
      return this.forward(input, target, adapter, () => adapter.request(target, upstreamBody, { stream, headers: input.headers }), stream, { wire: openAiWire, keep }, chatSize(body));
    }
    const translated = chatToMessagesRequest(body);
    const route: Route = {
      // Translated streams are read after translation, as chat chunks.
      wire: stream ? openAiWire : messagesWire,
      reshape: messagesToChatCompletion,
      restream: messagesStreamToChat,
      keep,
    };
    return this.forward(input, target, adapter, () => adapter.request(target, translated, { stream, headers: input.headers }), stream, route, chatSize(body));
  }

  async messages(input: CallInput, request: MessagesRequest & Record<string, unknown>): Promise<CallOutcome> {
    const target = await this.target(input, request.model);
    const scanned = await this.scan(input, request, messagesTexts);
    const body = scanned.body as typeof request;
    const adapter = adapterFor(target.format);
    if (adapter.wire !== "messages") {
      throw new ApiError(400, "invalid_request", `${target.model} is served by ${target.providerName} in the chat-completions format; call /v1/chat/completions for it.`, { param: "model" });
    }
    if (isSandbox(input.scope.identity)) return withSecurity(await sandboxMessages(input, body, this.deps.accountant), scanned.header);
    const stream = body.stream === true;
    const size = { messages: [{ content: body.system }, ...body.messages], maxTokens: body.max_tokens };
    return withSecurity(await this.forward(input, target, adapter, () => adapter.request(target, body, { stream, headers: input.headers }), stream, { wire: messagesWire }, size), scanned.header);
  }

  async embeddings(input: CallInput, request: EmbeddingsRequest & Record<string, unknown>): Promise<JsonOutcome> {
    const target = await this.target(input, request.model);
    const scanned = await this.scan(input, request, embeddingTexts);
    const body = scanned.body as typeof request;
    const adapter = adapterFor(target.format);
    if (!target.info.embeddings || adapter.wire !== "chat" || !canEmbed(adapter)) {
      throw new ApiError(400, "wrong_endpoint", `${target.info.displayName} (${target.providerName}) has no embeddings API; use an embeddings model of another provider.`, { param: "model" });
    }
    if (isSandbox(input.scope.identity)) return withSecurity(await sandboxEmbeddings(input, body, this.deps.accountant), scanned.header);
    const outcome = (await this.forward(input, target, adapter, () => adapter.embeddingsRequest(target, body), false, { wire: openAiWire, membersOnly: true }, { input: body.input })) as JsonOutcome;
    return withSecurity(outcome, scanned.header);
  }

  /** `count_tokens`: resolved, authorized and scanned like a call, never charged (count-tokens.ts). */
  countTokens(input: CallInput, request: MessagesCountTokensRequest & Record<string, unknown>): Promise<TokenCount> {
    return countTokens({ resolve: this.deps.resolve, settings: this.deps.spend.settings, upstreamTimeoutMs: this.deps.upstreamTimeoutMs }, input, request);
  }

  /** Stage 6: scan every text the call sends, with the organization's PII action. */
  private async scan(input: CallInput, body: Record<string, unknown>, texts: (body: Record<string, unknown>) => TextSlot[]) {
    const settings = await this.deps.spend.settings.get(input.scope.identity.organization.id);
    return scanRequest(body, texts, settings.piiAction);
  }

  /**
   * Stages 4 and 5: resolve the provider, then authorize it (geography, tier). Sandbox
   * calls resolve and are authorized the same way, so they fail the same way; they
   * only need no provider key, since the simulator answers them after these checks.
   */
  private async target(input: CallInput, model: string): Promise<Target> {
    const resolve = isSandbox(input.scope.identity) ? sandboxTarget : resolveTarget;
    const target = await resolve(this.deps.resolve, input.scope.identity, model, input.headers);
    authorizeTarget(input.scope.identity, target);
    return target;
  }

  /**
   * Stages 7 to 10: reserve spend, forward, check, account. Every path settles the
   * reservation: accounting settles it with the real cost, and anything that fails
   * before accounting gives it back.
   */
  private async forward(
    input: CallInput,
    target: Target,
    adapter: ProviderAdapter,
    build: () => UpstreamRequest | Promise<UpstreamRequest>,
    stream: boolean,
    route: Route,
    size: CallSize,
  ): Promise<CallOutcome> {
    const reservation = await reserveSpend(this.deps.spend, input.scope.identity, target, size);
    try {
      const req = await build();
      const outcome = stream ? await this.stream(input, target, adapter, req, route, reservation, size) : await this.json(input, target, req, route, reservation);
      if (this.deps.spend.catalog.price(target.model, target.kind).estimated) outcome.priceEstimated = true;
      return outcome;
    } catch (err) {
      reservation.release();
      throw err;
    }
  }

  /** Sends the request; a failure is accounted before it is thrown. */
  private async send(input: CallInput, target: Target, req: UpstreamRequest, reservation: Reservation): Promise<UpstreamResponse> {
    let up: UpstreamResponse;
    try {
      up = await sendUpstream(req, { caller: input.caller, timeoutMs: this.deps.upstreamTimeoutMs, providerName: target.providerName });
      if (target.configId) this.deps.rateUsage?.sent(target.configId, up.response.headers, Date.now());
    } catch (err) {
      await this.account(input, target, emptyUsage(), toApiError(err), reservation);
      throw err;
    }
    if (up.response.ok) return up;
    const failure = await upstreamFailure(up.response, target.providerName, secretsOf(target));
    up.done();
    await this.account(input, target, emptyUsage(), failure, reservation);
    throw failure;
  }

  private async json(input: CallInput, target: Target, req: UpstreamRequest, route: Route, reservation: Reservation): Promise<JsonOutcome> {
    const up = await this.send(input, target, req, reservation);
    let text: string;
    try {
      text = await up.response.text();
    } catch (err) {
      const cut = new ApiError(502, "provider_error", `${target.providerName} closed the connection before its answer was complete.`);
      await this.account(input, target, emptyUsage(), cut, reservation);
      throw cut;
    } finally {
      up.done();
    }
    const body = route.membersOnly && !route.reshape ? jsonObjectMembers(text, route.wire.bodyMembers) : parseObject(text);
    if (body === null) {
      const err = new ApiError(502, "provider_error", `${target.providerName} answered with something that is not a JSON object.`);
      await this.account(input, target, emptyUsage(), err, reservation);
      throw err;
    }
    const usage = route.wire.fromBody(body);
    const substitution = this.substitution(target, usage);
    // A substituted answer was still paid for: its cost is recorded before it is refused.
    const costMicros = await this.account(input, target, usage, substitution, reservation, up.response.status);
    if (substitution) throw substitution;
    if (route.reshape) text = JSON.stringify(route.reshape(body));
    return { type: "json", status: up.response.status, text, servedBy: `${target.providerName}/${target.model}`, costMicros };
  }

  private async stream(input: CallInput, target: Target, adapter: ProviderAdapter, req: UpstreamRequest, route: Route, reservation: Reservation, size: CallSize): Promise<StreamOutcome> {
    const up = await this.send(input, target, req, reservation);
    // Headers arrived: from here the stream runs as long as the provider and the client keep it open.
    up.done();
    const usage = emptyUsage();
    let refused: ApiError | null = null;
    const keep = route.keep;
    let accounted = () => {};
    const pending = new Promise<void>((resolve) => (accounted = resolve));
    this.unaccounted.add(pending);
    /** Answer pieces that passed, each at least one token: what a cut-off stream is charged for at least. */
    let pieces = 0;
    const tap: SseTapOptions & { drainMs: number; signal: AbortSignal } = {
      onEvent: (e) => {
        if (route.wire.carriesAnswer(e)) pieces++;
        if (!route.wire.fromEvent(e, usage)) return;
        refused = this.substitution(target, usage);
        if (refused) return { stop: route.wire.errorEvent(refused) };
      },
      keep: keep ? (e) => keep(e.data) : undefined,
      onEnd: async (clean) => {
        const failure = (refused as ApiError | null) ?? (clean ? null : STREAM_INTERRUPTED);
        if (failure === STREAM_INTERRUPTED) chargeCutStream(usage, size, pieces);
        try {
          await this.account(input, target, usage, failure, reservation, up.response.status);
        } finally {
          this.unaccounted.delete(pending);
          accounted();
        }
      },
      // A refused stream was still paid for: the client gets the error and the end, and
      // the rest is read unseen (at most as long as a provider may take, or until
      // shutdown) for the real usage.
      drainMs: this.deps.upstreamTimeoutMs,
      signal: this.closing.signal,
    };
    let body = up.response.body;
    if (!body) throw new ApiError(502, "provider_error", `${target.providerName} sent an empty stream.`);
    if (adapter.sseBody) body = adapter.sseBody(body);
    if (route.restream) body = body.pipeThrough(route.restream());
    return { type: "stream", status: up.response.status, stream: sseTapSource(body, tap), servedBy: `${target.providerName}/${target.model}` };
  }

  private substitution(target: Target, usage: CallUsage): ApiError | null {
    if (isSameModel(target.model, usage.model)) return null;
    return new ApiError(502, "model_substitution_detected", `${target.providerName} answered with model "${usage.model}" instead of the requested "${target.model}".`, {
      details: { requested: target.model, answered: usage.model },
    });
  }

  /** One usage event (a failure's status and code, or the provider's status), and the reservation settled with its cost. */
  private async account(input: CallInput, target: Target, usage: CallUsage, failure: ApiError | null, reservation: Reservation, okStatus = 200): Promise<number> {
    const cost = await this.deps.accountant.record(input.scope, {
      provider: target.kind,
      model: target.model,
      status: failure ? failure.status : okStatus,
      errorCode: failure ? failure.code : null,
      promptTokens: usage.promptTokens,
      completionTokens: usage.completionTokens,
    });
    reservation.settle(cost);
    if (target.configId) this.deps.rateUsage?.tokens(target.configId, usage.promptTokens + usage.completionTokens, Date.now());
    return cost;
  }
}

/**
 * A stream cut off (the client left, or the provider broke off) before the provider
 * reported its usage was still paid for: the prompt was read and the pieces that
 * passed were generated. What the provider did not report is estimated: the prompt
 * with the tokenizer, the answer as one token per piece (a floor: pieces carry one
 * token or more).
 */
function chargeCutStream(usage: CallUsage, size: CallSize, pieces: number): void {
  if (usage.promptTokens === 0) usage.promptTokens = estimatedPromptTokens(size);
  usage.completionTokens = Math.max(usage.completionTokens, pieces);
}

/** The outcome with what scanning found: set on the outcome the call made (each call makes its own), not on a copy. */
function withSecurity<O extends CallOutcome>(outcome: O, header: string): O {
  outcome.security = header;
  return outcome;
}

function chatSize(body: ChatCompletionRequest): CallSize {
  return { messages: body.messages, maxTokens: body.max_tokens ?? body.max_completion_tokens };
}
