/** The GenAI series: answered calls' tokens, durations and spend land in their provider and model's series, failures in their error type's. */
import { expect, test } from "bun:test";
import { MetricsRegistry } from "../../src/lib/metrics.ts";
import { CallMetrics } from "../../src/pipeline/call-metrics.ts";
import type { Target } from "../../src/providers/target.ts";

const target = (kind: string, model: string | null, simulated = false) =>
  ({ kind, simulated, catalogModel: model === null ? undefined : { id: model } }) as unknown as Target;

const lines = (registry: MetricsRegistry, prefix: string) =>
  registry
    .render()
    .split("\n")
    .filter((l) => l.startsWith(prefix));

test("spend adds up per provider and model, answered or failed; a free call makes no spend series", () => {
  const registry = new MetricsRegistry();
  const m = new CallMetrics(registry);
  const gpt = target("openai", "gpt-4o");
  m.attempt("chat", gpt, 10, 5, 0.1, null, 100);
  m.attempt("chat", gpt, 10, 5, 0.1, null, 250);
  m.attempt("chat", gpt, 0, 0, 0.1, "provider_error", 7);
  m.attempt("chat", target("anthropic", null), 10, 5, 0.1, null, 1);
  m.attempt("chat", target("openai", "gpt-4o", true), 10, 5, 0.1, null, 0);
  m.attempt("embeddings", target("openai", "text-embedding-3-small"), 10, 0, 0.1, null, 0);
  expect(lines(registry, "gateway_spend_microdollars_total{")).toEqual([
    'gateway_spend_microdollars_total{gen_ai_provider_name="openai",gen_ai_request_model="gpt-4o"} 357',
    'gateway_spend_microdollars_total{gen_ai_provider_name="anthropic",gen_ai_request_model="other"} 1',
  ]);
  expect(lines(registry, "gen_ai_client_operation_duration_seconds_count{")).toEqual([
    'gen_ai_client_operation_duration_seconds_count{gen_ai_operation_name="chat",gen_ai_provider_name="openai",gen_ai_request_model="gpt-4o",error_type=""} 2',
    'gen_ai_client_operation_duration_seconds_count{gen_ai_operation_name="chat",gen_ai_provider_name="openai",gen_ai_request_model="gpt-4o",error_type="provider_error"} 1',
    'gen_ai_client_operation_duration_seconds_count{gen_ai_operation_name="chat",gen_ai_provider_name="anthropic",gen_ai_request_model="other",error_type=""} 1',
    'gen_ai_client_operation_duration_seconds_count{gen_ai_operation_name="chat",gen_ai_provider_name="sandbox",gen_ai_request_model="gpt-4o",error_type=""} 1',
    'gen_ai_client_operation_duration_seconds_count{gen_ai_operation_name="embeddings",gen_ai_provider_name="openai",gen_ai_request_model="text-embedding-3-small",error_type=""} 1',
  ]);
  expect(lines(registry, "gen_ai_client_token_usage_sum{")).toContain(
    'gen_ai_client_token_usage_sum{gen_ai_operation_name="chat",gen_ai_provider_name="openai",gen_ai_request_model="gpt-4o",gen_ai_token_type="output"} 10',
  );
});
