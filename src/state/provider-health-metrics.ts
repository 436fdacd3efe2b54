/**
 * Provider health in `/metrics`: per configuration the circuit (0 closed, 1 open or
 * probing) and its consecutive failures; per configuration and model the moving
 * averages and error rate. Labels are configuration ids and model ids, bounded by
 * what operators configured; names stay out (they are the organizations' words).
 */
import type { ProviderHealth } from "./provider-health.ts";

function label(v: string): string {
  return v.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

export class ProviderHealthMetrics {
  constructor(private readonly health: ProviderHealth) {}

  render(): string {
    const circuits = this.health.circuitsView();
    const models = this.health.modelsView();
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
