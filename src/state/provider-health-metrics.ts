/**
 * Provider health in `/metrics`: per configuration the circuit (0 closed, 1 open or
 * probing) and its consecutive failures; per configuration and model the moving
 * averages and error rate. Labels are configuration ids and model ids from a bounded
 * vocabulary: a model the catalog does not know (callers may name any model after
 * `name/`) is folded into `model="other"`, its figures averaged by samples with the
 * configuration's other unknown models. Names stay out (they are the organizations' words).
 */
import type { ProviderHealth } from "./provider-health.ts";

/** The label unknown models share. */
export const OTHER_MODEL = "other";

type ModelView = ReturnType<ProviderHealth["modelsView"]>[number];

/** Per configuration: known models as they are, unknown ones as one `other` row (averages weighted by samples). */
export function foldUnknownModels(models: ModelView[], isKnown: (model: string) => boolean): ModelView[] {
  const out: ModelView[] = [];
  const other = new Map<string, ModelView[]>();
  for (const m of models) {
    if (isKnown(m.model) && m.model !== OTHER_MODEL) out.push(m);
    else other.set(m.providerId, [...(other.get(m.providerId) ?? []), m]);
  }
  for (const [providerId, rows] of other) {
    const samples = rows.reduce((n, r) => n + r.samples, 0);
    const weight = (r: ModelView) => (samples === 0 ? 1 / rows.length : r.samples / samples);
    const mean = (pick: (r: ModelView) => number) => rows.reduce((n, r) => n + pick(r) * weight(r), 0);
    out.push({
      providerId,
      model: OTHER_MODEL,
      samples,
      ttfbMs: mean((r) => r.ttfbMs),
      totalMs: mean((r) => r.totalMs),
      errorRate: mean((r) => r.errorRate),
    });
  }
  return out;
}

function label(v: string): string {
  return v.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

export class ProviderHealthMetrics {
  constructor(
    private readonly health: ProviderHealth,
    /** Whether a model id may be a label of its own (the catalog's models). */
    private readonly isKnownModel: (model: string) => boolean,
  ) {}

  render(): string {
    const circuits = this.health.circuitsView();
    const models = foldUnknownModels(this.health.modelsView(), this.isKnownModel);
    let out =
      "# HELP gateway_provider_circuit_open Whether a provider configuration is cooling down after repeated failures (1) or closed (0).\n# TYPE gateway_provider_circuit_open gauge\n";
    for (const c of circuits)
      out += `gateway_provider_circuit_open{provider_id="${label(c.providerId)}"} ${c.state === "closed" ? 0 : 1}\n`;
    out +=
      "# HELP gateway_provider_consecutive_failures Failures in a row of a provider configuration.\n# TYPE gateway_provider_consecutive_failures gauge\n";
    for (const c of circuits)
      out += `gateway_provider_consecutive_failures{provider_id="${label(c.providerId)}"} ${c.consecutiveFailures}\n`;
    const series = (name: string, help: string, value: (m: (typeof models)[number]) => number) => {
      out += `# HELP ${name} ${help}\n# TYPE ${name} gauge\n`;
      for (const m of models) out += `${name}{provider_id="${label(m.providerId)}",model="${label(m.model)}"} ${value(m)}\n`;
    };
    series(
      "gateway_provider_latency_seconds",
      "Moving average of a whole answer's time, per provider configuration and model.",
      (m) => m.totalMs / 1000,
    );
    series(
      "gateway_provider_ttfb_seconds",
      "Moving average of the time to the first byte, per provider configuration and model.",
      (m) => m.ttfbMs / 1000,
    );
    series("gateway_provider_error_rate", "Moving share of failed calls (0-1), per provider configuration and model.", (m) => m.errorRate);
    return out;
  }
}
