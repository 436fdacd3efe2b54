/**
 * The model calls on /metrics: the OpenTelemetry GenAI client metrics in Prometheus'
 * naming (`gen_ai_client_token_usage`, tokens per provider call by type, and
 * `gen_ai_client_operation_duration_seconds`, with the conventions' buckets), the spend
 * they were charged, and the fallbacks taken. Every label comes from a bounded
 * vocabulary decided here: the operation, the provider's convention name, the model
 * when the catalog lists it (else `other`, so a caller cannot mint series by naming
 * models), and error types and causes from the gateway's own codes.
 */
import { Counter, type CounterSeries, Histogram, type HistogramSeries, type MetricsRegistry } from "../lib/metrics.ts";
import { genAiProviderName } from "../providers/gen-ai-names.ts";
import type { Target } from "../providers/target.ts";

/** The conventions' advised buckets for token counts (powers of 4) and for durations in seconds. */
const TOKEN_BUCKETS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864];
const DURATION_BUCKETS_S = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92];

const LABELS = ["gen_ai_operation_name", "gen_ai_provider_name", "gen_ai_request_model"];

/** The series an answered call of one operation, provider and model lands in. */
interface AnsweredSeries {
  input: HistogramSeries;
  /** None for embeddings, which have no output tokens (no empty series on /metrics). */
  output: HistogramSeries | null;
  duration: HistogramSeries;
  /** Made on the first charged call only: a free model (the sandbox, a self-hosted one) has no spend series. */
  spend: CounterSeries | null;
}

/** Operations, providers and catalog models are bounded vocabularies, so this map is too. */
const MAX_ANSWERED = 10_000;

export class CallMetrics {
  private readonly answered = new Map<string, AnsweredSeries>();
  private readonly tokens: Histogram;
  private readonly duration: Histogram;
  private readonly spend: Counter;
  private readonly fallbacks: Counter;

  constructor(registry: MetricsRegistry) {
    this.tokens = registry.register(
      new Histogram(
        "gen_ai_client_token_usage",
        "Tokens per provider call, by type (input, output) (OpenTelemetry GenAI conventions).",
        [...LABELS, "gen_ai_token_type"],
        TOKEN_BUCKETS,
      ),
    );
    this.duration = registry.register(
      new Histogram(
        "gen_ai_client_operation_duration_seconds",
        "Duration of a provider call, to its last byte (OpenTelemetry GenAI conventions); error_type is empty on success.",
        [...LABELS, "error_type"],
        DURATION_BUCKETS_S,
      ),
    );
    this.spend = registry.register(
      new Counter(
        "gateway_spend_microdollars_total",
        "What calls were charged, in micro-dollars, by provider and model (sandbox calls are free).",
        ["gen_ai_provider_name", "gen_ai_request_model"],
      ),
    );
    this.fallbacks = registry.register(
      new Counter("gateway_fallbacks_total", "Calls moved on to another target, by the failure that moved them.", ["cause"]),
    );
  }

  /** A call moved on from a target that failed with `cause` (an error code). */
  fallback(cause: string): void {
    this.fallbacks.inc([cause]);
  }

  /** One provider call: its tokens when it was answered, how long it took, and what it was charged. */
  attempt(
    operation: string,
    target: Target,
    input: number,
    output: number,
    seconds: number,
    errorType: string | null,
    costMicros: number,
  ): void {
    const provider = genAiProviderName(target.kind, target.simulated);
    // The catalog's own id, or `other`: a name the caller typed never becomes a label.
    const model = target.catalogModel?.id ?? "other";
    if (errorType === null) {
      // Every answered call: its series found by one key, not a label list for each joined and looked up.
      const s = this.answeredSeries(operation, provider, model);
      this.tokens.record(s.input, input);
      if (s.output) this.tokens.record(s.output, output);
      this.duration.record(s.duration, seconds);
      if (costMicros > 0) (s.spend ??= this.spend.seriesOf([provider, model])).n += costMicros;
      return;
    }
    this.duration.observe([operation, provider, model, errorType], seconds);
    if (costMicros > 0) this.spend.inc([provider, model], costMicros);
  }

  private answeredSeries(operation: string, provider: string, model: string): AnsweredSeries {
    const key = `${operation}\u0000${provider}\u0000${model}`;
    let s = this.answered.get(key);
    if (!s) {
      s = {
        input: this.tokens.seriesOf([operation, provider, model, "input"]),
        output: operation === "embeddings" ? null : this.tokens.seriesOf([operation, provider, model, "output"]),
        duration: this.duration.seriesOf([operation, provider, model, ""]),
        spend: null,
      };
      if (this.answered.size < MAX_ANSWERED) this.answered.set(key, s);
    }
    return s;
  }
}
