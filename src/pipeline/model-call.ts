/**
 * One model call through the request path after admission: resolve the provider
 * (stage 4), forward (stage 8) and account (stage 10). Later stages of policy slot
 * in between resolution and forwarding. Used by the HTTP surfaces and `ai.proxy`
 * alike, so every way in gets the same checks and accounting.
 */
import type { ChatCompletionRequest, ChatUsage } from "../api/chat-completions.ts";
import type { EmbeddingsRequest } from "../api/embeddings.ts";
import { ApiError, toApiError } from "../lib/errors.ts";
import { type SseEvent, sseTap } from "../lib/sse.ts";
import { canEmbed, type ProviderAdapter, type UpstreamRequest } from "../providers/adapter.ts";
import { adapterFor } from "../providers/registry.ts";
import type { Target } from "../providers/target.ts";
import { sendUpstream, type UpstreamResponse, upstreamFailure } from "../providers/upstream.ts";
import type { Accountant, CallScope } from "./account.ts";
import { type ResolveDeps, resolveTarget } from "./resolve-provider.ts";

export interface ModelCallDeps {
  resolve: ResolveDeps;
  accountant: Accountant;
  upstreamTimeoutMs: number;
}

export interface CallInput {
  scope: CallScope;
  headers: Headers;
  /** Aborts when the client goes away. */
  signal: AbortSignal;
}

export interface JsonOutcome {
  type: "json";
  status: number;
  /** The provider's body exactly as received: surfaces send these bytes, not a re-encoding. */
  text: string;
  body: Record<string, unknown>;
  target: Target;
  costMicros: number;
}

export interface StreamOutcome {
  type: "stream";
  status: number;
  stream: ReadableStream<Uint8Array>;
  target: Target;
}

export type CallOutcome = JsonOutcome | StreamOutcome;

function secretsOf(t: Target): string[] {
  return t.credentials.type === "api-key" ? [t.credentials.apiKey] : [t.credentials.secretAccessKey, t.credentials.sessionToken ?? ""];
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
  constructor(private readonly deps: ModelCallDeps) {}

  async chat(input: CallInput, body: ChatCompletionRequest & Record<string, unknown>): Promise<CallOutcome> {
    const target = await resolveTarget(this.deps.resolve, input.scope.identity, body.model, input.headers);
    const adapter = this.adapter(target);
    if (body.stream !== true) return this.json(input, target, adapter.chatRequest(target, body));
    // Usage is always asked for upstream so the call can be priced; the extra chunk is removed again if the caller did not ask.
    const callerWantsUsage = body.stream_options?.include_usage === true;
    const upstreamBody = callerWantsUsage ? body : { ...body, stream_options: { ...body.stream_options, include_usage: true } };
    return this.stream(input, target, adapter.chatRequest(target, upstreamBody), callerWantsUsage);
  }

  async embeddings(input: CallInput, body: EmbeddingsRequest & Record<string, unknown>): Promise<JsonOutcome> {
    const target = await resolveTarget(this.deps.resolve, input.scope.identity, body.model, input.headers);
    const adapter = adapterFor(target.format);
    if (!target.info.embeddings || !adapter || !canEmbed(adapter)) {
      throw new ApiError(400, "wrong_endpoint", `${target.info.displayName} (${target.providerName}) has no embeddings API; use an embeddings model of another provider.`, { param: "model" });
    }
    return this.json(input, target, adapter.embeddingsRequest(target, body));
  }

  private adapter(target: Target): ProviderAdapter {
    const adapter = adapterFor(target.format);
    if (!adapter) throw new ApiError(400, "wrong_endpoint", `${target.providerName} speaks the ${target.format} format, which this endpoint cannot reach yet.`, { param: "model" });
    return adapter;
  }

  /** Sends the request; a failure is accounted before it is thrown. */
  private async send(input: CallInput, target: Target, req: UpstreamRequest): Promise<UpstreamResponse> {
    let up: UpstreamResponse;
    try {
      up = await sendUpstream(req, { signal: input.signal, timeoutMs: this.deps.upstreamTimeoutMs, providerName: target.providerName });
    } catch (err) {
      await this.accountFailure(input, target, toApiError(err));
      throw err;
    }
    if (up.response.ok) return up;
    const failure = await upstreamFailure(up.response, target.providerName, secretsOf(target));
    up.done();
    await this.accountFailure(input, target, failure);
    throw failure;
  }

  private async accountFailure(input: CallInput, target: Target, err: ApiError): Promise<void> {
    await this.deps.accountant.record(input.scope, { provider: target.kind, model: target.model, status: err.status, errorCode: err.code, promptTokens: 0, completionTokens: 0 });
  }

  private async json(input: CallInput, target: Target, req: UpstreamRequest): Promise<JsonOutcome> {
    const up = await this.send(input, target, req);
    let text: string;
    try {
      text = await up.response.text();
    } catch (err) {
      await this.accountFailure(input, target, toApiError(err));
      throw new ApiError(502, "provider_error", `${target.providerName} closed the connection before its answer was complete.`);
    } finally {
      up.done();
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      const err = new ApiError(502, "provider_error", `${target.providerName} answered with something that is not JSON.`);
      await this.accountFailure(input, target, err);
      throw err;
    }
    const usage = (body.usage ?? {}) as ChatUsage;
    const costMicros = await this.deps.accountant.record(input.scope, {
      provider: target.kind,
      model: target.model,
      status: up.response.status,
      errorCode: null,
      promptTokens: usage.prompt_tokens ?? 0,
      completionTokens: usage.completion_tokens ?? 0,
    });
    return { type: "json", status: up.response.status, text, body, target, costMicros };
  }

  private async stream(input: CallInput, target: Target, req: UpstreamRequest, callerWantsUsage: boolean): Promise<StreamOutcome> {
    const up = await this.send(input, target, req);
    // Headers arrived: from here the stream runs as long as the provider and the client keep it open.
    up.done();
    let usage: ChatUsage | null = null;
    const tap = sseTap({
      onEvent: (e: SseEvent) => {
        if (!e.data.includes('"usage"')) return;
        try {
          usage = ((JSON.parse(e.data) as { usage?: ChatUsage }).usage ?? usage) as ChatUsage | null;
        } catch {
          // a malformed chunk is the client's to see; accounting keeps what it has
        }
      },
      keep: callerWantsUsage ? undefined : (e) => !isUsageOnlyChunk(e.data),
      onEnd: async (clean) => {
        const u = usage as ChatUsage | null;
        await this.deps.accountant.record(input.scope, {
          provider: target.kind,
          model: target.model,
          status: clean ? up.response.status : 499,
          errorCode: clean ? null : "stream_interrupted",
          promptTokens: u?.prompt_tokens ?? 0,
          completionTokens: u?.completion_tokens ?? 0,
        });
      },
    });
    const body = up.response.body;
    if (!body) throw new ApiError(502, "provider_error", `${target.providerName} sent an empty stream.`);
    return { type: "stream", status: up.response.status, stream: body.pipeThrough(tap), target };
  }
}
