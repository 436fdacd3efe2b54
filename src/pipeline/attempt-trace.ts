/**
 * An attempt's span, opened by the fallback loop and closed by the forwarder: a client
 * span to the provider, named and attributed by the OpenTelemetry GenAI conventions
 * (operation, provider, models, usage, finish, server), with the gateway's own `gw.*`
 * (attempt number, the failure that moved the call here, the substitution check).
 * Never any text of the call.
 */
import { ApiError } from "../lib/errors.ts";
import { NOOP_SPAN, type TraceSpan } from "../lib/tracing/trace-span.ts";
import { genAiProviderName } from "../providers/gen-ai-names.ts";
import type { CallUsage } from "../providers/wire-format.ts";
import type { ResolvedTarget } from "./authorize.ts";

/** Where the attempts' spans hang: the call's span, and the GenAI operation they perform (`chat`, `embeddings`). */
export interface AttemptTracing {
  parent: TraceSpan;
  operation: string;
}

/**
 * An attempt's span: a client span to the provider, named and attributed by the GenAI
 * conventions. The forwarder ends it when the attempt is accounted (a stream, when it
 * ends); the loop ends it when the attempt fails before that.
 */
export function attemptSpan(trace: AttemptTracing | undefined, target: ResolvedTarget, n: number, cause: unknown): TraceSpan {
  if (!trace?.parent.recording) return NOOP_SPAN;
  const span = trace.parent.child(`${trace.operation} ${target.model}`, true);
  span.set("gen_ai.operation.name", trace.operation);
  span.set("gen_ai.provider.name", genAiProviderName(target.kind, target.simulated));
  span.set("gen_ai.request.model", target.model);
  span.set("gw.provider", target.providerName);
  span.set("gw.attempt", n);
  if (cause instanceof ApiError) span.set("gw.fallback.cause", cause.code);
  if (!target.simulated) {
    try {
      const url = new URL(target.baseUrl);
      span.set("server.address", url.hostname);
      span.set("server.port", Number(url.port) || (url.protocol === "https:" ? 443 : 80));
    } catch {
      // a configuration's address was validated when saved; nothing to report otherwise
    }
  }
  return span;
}

/** The answer's model, usage and finish on the attempt's span (and the call's, when it answered); the check's verdict. */
export function traceAttemptEnd(span: TraceSpan, call: TraceSpan | undefined, usage: CallUsage, failure: ApiError | null): void {
  for (const s of failure || !call ? [span] : [span, call]) {
    s.set("gen_ai.response.model", usage.model);
    s.set("gen_ai.usage.input_tokens", usage.promptTokens);
    s.set("gen_ai.usage.output_tokens", usage.completionTokens);
    // The conventions count these inside input_tokens, as CallUsage does; absent when the provider reported no cache.
    if (usage.cache) {
      s.set("gen_ai.usage.cache_read.input_tokens", usage.cache.read);
      s.set("gen_ai.usage.cache_creation.input_tokens", usage.cache.write);
    }
    if (usage.finishReason) s.set("gen_ai.response.finish_reasons", [usage.finishReason]);
  }
  if (usage.model !== null) span.set("gw.substitution", failure?.code === "model_substitution_detected" ? "detected" : "ok");
  if (failure) span.fail(failure);
}
