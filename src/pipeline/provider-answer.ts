/**
 * What a provider's answer becomes for one attempt (forward.ts, stream-outcome.ts): a
 * whole answer's body and outcome, another model's answer refused, a cut-off stream's
 * charge, a 429's wait.
 */
import { ApiError } from "../lib/errors.ts";
import { servedBy, type Target } from "../providers/target.ts";
import type { CallUsage } from "../providers/wire-format.ts";
import type { JsonOutcome } from "./call-types.ts";
import { type CallSize, estimatedPromptTokens } from "./reserve-spend.ts";
import { isSameModel } from "./substitution.ts";

/** A stream that ended before its last event: the client left, or the provider cut it. */
export const STREAM_INTERRUPTED = new ApiError(499, "stream_interrupted", "The stream ended before the answer was complete.");

/** A whole answer's body: null unless it is a JSON object. */
export function parseObject(text: string): Record<string, unknown> | null {
  try {
    const body: unknown = JSON.parse(text);
    return typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** A failure handed on as a fulfilled promise's value (what to throw once it is accounted), thrown. */
export function rethrow(err: unknown): never {
  throw err;
}

/**
 * A whole answer's text for the caller: as the provider sent it, or reshaped for a caller
 * of another format. A body the translation cannot read (a list where it expects an object,
 * a number for a text) is the provider's 502, accounted as that failure, never a 500.
 */
export function reshapedText(
  target: Target,
  text: string,
  body: Record<string, unknown>,
  reshape: ((body: Record<string, unknown>) => Record<string, unknown>) | undefined,
): string | ApiError {
  if (!reshape) return text;
  try {
    return JSON.stringify(reshape(body));
  } catch (err) {
    if (err instanceof ApiError) return err;
    return new ApiError(502, "provider_error", `${target.providerName} answered in a shape that could not be translated to your format.`);
  }
}

/** A whole answer's outcome, once accounted: refused if another model answered (or it could not be translated), else its text. */
export function jsonOutcome(
  target: Target,
  status: number,
  text: string,
  usage: CallUsage,
  failure: ApiError | null,
  costMicros: number,
): JsonOutcome {
  if (failure) throw failure;
  const outcome: JsonOutcome = { type: "json", status, text, servedBy: servedBy(target), costMicros };
  // Tool fees are charged at their listed ceiling.
  if (usage.feeMicros && !target.simulated) outcome.priceEstimated = true;
  return outcome;
}

/** Another model than the one asked for answered: refused (after its cost is recorded). */
export function substitutionOf(target: Target, usage: CallUsage): ApiError | null {
  if (isSameModel(target.model, usage.model)) return null;
  return new ApiError(
    502,
    "model_substitution_detected",
    `${target.providerName} answered with model "${usage.model}" instead of the requested "${target.model}".`,
    {
      details: { requested: target.model, answered: usage.model },
    },
  );
}

/** A provider's wait kept on its 429 (`retry-after-ms`, else `Retry-After` in seconds), in milliseconds. */
export function retryAfterMs(failure: ApiError): number | undefined {
  const ms = Number(failure.headers?.["retry-after-ms"]);
  if (Number.isFinite(ms) && ms > 0) return ms;
  const seconds = Number(failure.headers?.["retry-after"]);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined;
}

/** A count as the provider should have written it: a whole number of tokens, at least 0. */
const counted = (v: unknown): number => (typeof v === "number" && v >= 0 && v <= Number.MAX_SAFE_INTEGER ? Math.floor(v) : 0);

/**
 * The provider's counts made whole, non-negative numbers before anything prices, stores or
 * adds them: anything else (an object, a string, -1000000, NaN) is taken as unreported. An
 * object failed every later usage flush with it (the batch is retried whole, so the node's
 * accounting stopped), and a negative count would pay the caller's cap back. Its fee is
 * no more than the request's own limits let it charge (`maxFeeMicros`, reserve-spend.ts).
 */
export function keepCounts(usage: CallUsage, maxFeeMicros?: number): CallUsage {
  usage.promptTokens = counted(usage.promptTokens);
  usage.completionTokens = counted(usage.completionTokens);
  if (usage.feeMicros !== undefined) {
    const over = maxFeeMicros !== undefined && typeof usage.feeMicros === "number" && usage.feeMicros > maxFeeMicros;
    usage.feeMicros = over ? maxFeeMicros : counted(usage.feeMicros);
  }
  return usage;
}

/**
 * A stream cut off (the client left, or the provider broke off) before the provider
 * reported its usage was still paid for: the prompt was read and the pieces that
 * passed were generated. What the provider did not report is estimated: the prompt
 * with the tokenizer, the answer as one token per piece (a floor: pieces carry one
 * token or more).
 */
export function chargeCutStream(usage: CallUsage, size: CallSize, pieces: number): void {
  keepCounts(usage);
  if (usage.promptTokens === 0) usage.promptTokens = estimatedPromptTokens(size);
  usage.completionTokens = Math.max(usage.completionTokens, pieces);
}
