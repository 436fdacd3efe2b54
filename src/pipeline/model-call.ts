/**
 * One model call through the request path after admission: resolve the provider
 * (stage 4), forward (stage 8) and account (stage 10). Later stages of policy slot
 * in between resolution and forwarding. Used by the HTTP surfaces and `ai.proxy`
 * alike, so every way in gets the same checks and accounting.
 */
import type { ChatCompletionRequest } from "../api/chat-completions.ts";
import type { EmbeddingsRequest } from "../api/embeddings.ts";
import { ApiError, toApiError } from "../lib/errors.ts";
import { sseTap } from "../lib/sse.ts";
import { canEmbed, type ProviderAdapter, type UpstreamRequest } from "../providers/adapter.ts";
import { openAiWire } from "../providers/openai-compatible/openai-wire.ts";
import { adapterFor } from "../providers/registry.ts";
import type { Target } from "../providers/target.ts";
import { sendUpstream, type UpstreamResponse, upstreamFailure } from "../providers/upstream.ts";
import { type CallUsage, emptyUsage, type WireFormat } from "../providers/wire-format.ts";
import type { Accountant, CallScope } from "./account.ts";
import { type ResolveDeps, resolveTarget } from "./resolve-provider.ts";
import { sandboxChat, sandboxEmbeddings, isSandbox } from "./sandbox.ts";
import { isSameModel } from "./substitution.ts";

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
  /** `provider/model` that answered (`sandbox/<model>` for test keys). */
  servedBy: string;
  costMicros: number;
}

export interface StreamOutcome {
  type: "stream";
  status: number;
  stream: ReadableStream<Uint8Array>;
  servedBy: string;
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
    if (isSandbox(input.scope.identity)) return sandboxChat(input, body, this.deps.accountant);
    const target = await resolveTarget(this.deps.resolve, input.scope.identity, body.model, input.headers);
    const adapter = this.adapter(target);
    if (body.stream !== true) return this.json(input, target, adapter.chatRequest(target, body), openAiWire);
    // Usage is always asked for upstream so the call can be priced; the extra chunk is removed again if the caller did not ask.
    const callerWantsUsage = body.stream_options?.include_usage === true;
    const upstreamBody = callerWantsUsage ? body : { ...body, stream_options: { ...body.stream_options, include_usage: true } };
    return this.stream(input, target, adapter.chatRequest(target, upstreamBody), openAiWire, callerWantsUsage);
  }

  async embeddings(input: CallInput, body: EmbeddingsRequest & Record<string, unknown>): Promise<JsonOutcome> {
    if (isSandbox(input.scope.identity)) return sandboxEmbeddings(input, body, this.deps.accountant);
    const target = await resolveTarget(this.deps.resolve, input.scope.identity, body.model, input.headers);
    const adapter = adapterFor(target.format);
    if (!target.info.embeddings || !adapter || !canEmbed(adapter)) {
      throw new ApiError(400, "wrong_endpoint", `${target.info.displayName} (${target.providerName}) has no embeddings API; use an embeddings model of another provider.`, { param: "model" });
    }
    return this.json(input, target, adapter.embeddingsRequest(target, body), openAiWire);
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

  private async json(input: CallInput, target: Target, req: UpstreamRequest, wire: WireFormat): Promise<JsonOutcome> {
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
    const usage = wire.fromBody(body);
    const substitution = this.substitution(target, usage);
    // A substituted answer was still paid for: its cost is recorded before it is refused.
    const costMicros = await this.account(input, target, usage, substitution ? 502 : up.response.status, substitution?.code ?? null);
    if (substitution) throw substitution;
    return { type: "json", status: up.response.status, text, body, servedBy: `${target.providerName}/${target.model}`, costMicros };
  }

  private substitution(target: Target, usage: CallUsage): ApiError | null {
    if (isSameModel(target.model, usage.model)) return null;
    return new ApiError(502, "model_substitution_detected", `${target.providerName} answered with model "${usage.model}" instead of the requested "${target.model}".`, {
      details: { requested: target.model, answered: usage.model },
    });
  }

  private account(input: CallInput, target: Target, usage: CallUsage, status: number, errorCode: string | null) {
    return this.deps.accountant.record(input.scope, { provider: target.kind, model: target.model, status, errorCode, promptTokens: usage.promptTokens, completionTokens: usage.completionTokens });
  }

  private async stream(input: CallInput, target: Target, req: UpstreamRequest, wire: WireFormat, callerWantsUsage: boolean): Promise<StreamOutcome> {
    const up = await this.send(input, target, req);
    // Headers arrived: from here the stream runs as long as the provider and the client keep it open.
    up.done();
    const usage = emptyUsage();
    let refused: ApiError | null = null;
    const tap = sseTap({
      onEvent: (e) => {
        if (!wire.fromEvent(e, usage)) return;
        refused = this.substitution(target, usage);
        if (refused) return { stop: wire.errorEvent(refused) };
      },
      keep: callerWantsUsage ? undefined : (e) => !isUsageOnlyChunk(e.data),
      onEnd: async (clean) => {
        const failure = refused as ApiError | null;
        await this.account(input, target, usage, failure ? failure.status : clean ? up.response.status : 499, failure ? failure.code : clean ? null : "stream_interrupted");
      },
    });
    const body = up.response.body;
    if (!body) throw new ApiError(502, "provider_error", `${target.providerName} sent an empty stream.`);
    return { type: "stream", status: up.response.status, stream: body.pipeThrough(tap), servedBy: `${target.providerName}/${target.model}` };
  }
}
