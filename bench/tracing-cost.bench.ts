/**
 * What tracing costs per call: the in-process pipeline benchmark (bench/pipeline.bench.ts,
 * CPU of the gateway's code per 1 KB chat call) in fresh processes, alternating tracing
 * off (no endpoint) and on at 100% sampling, exporting every span over OTLP/HTTP to a
 * sink on loopback (the export's own CPU, serialization included, counts: it runs in the
 * gateway's process). Off against the code before tracing is bench/compare.ts's job.
 *
 *   bun bench/tracing-cost.bench.ts [--runs 3] [--requests 100000] [--protocol http/protobuf]
 */
import { parseArgs } from "node:util";
import { inFreshProcess } from "./lib/fresh-process.ts";
import { median } from "./lib/stats.ts";
import type { PipelineResult } from "./pipeline.bench.ts";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "3" },
    requests: { type: "string", default: "100000" },
    protocol: { type: "string", default: "http/protobuf" },
    quick: { type: "boolean", default: false },
  },
});
const runs = values.quick ? 1 : Number(values.runs);
const requests = values.quick ? 2_000 : Number(values.requests);

let spansBytes = 0;
const sink = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  async fetch(req) {
    spansBytes += (await req.arrayBuffer()).byteLength;
    return new Response(null, { status: 200 });
  },
});

const on = {
  OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${sink.port}`,
  OTEL_EXPORTER_OTLP_PROTOCOL: values.protocol,
  // Every span exported, none dropped for a full queue: the cost of tracing all of them.
  OTEL_BSP_SCHEDULE_DELAY: "200",
  OTEL_BSP_MAX_QUEUE_SIZE: "100000",
  OTEL_BSP_MAX_EXPORT_BATCH_SIZE: "2048",
};
const off = { OTEL_SDK_DISABLED: "true" };

const micros: Record<"off" | "on", number[]> = { off: [], on: [] };
try {
  for (let i = 0; i < runs; i++) {
    for (const [name, env] of [
      ["off", off],
      ["on", on],
    ] as const) {
      const r = await inFreshProcess<PipelineResult>("bench/pipeline.bench.ts", "runPipelineBench", [{ requests }], undefined, env);
      micros[name].push(r.microsPerRequest);
    }
  }
} finally {
  sink.stop(true);
}
const [a, b] = [median(micros.off), median(micros.on)];
console.log(
  `tracing off ${a.toFixed(1)} µs, on at 100% (${values.protocol}) ${b.toFixed(1)} µs of CPU per 1 KB chat call: +${(b - a).toFixed(1)} µs ` +
    `(${runs} alternating run${runs > 1 ? "s" : ""} of ${requests.toLocaleString("en-US")} requests; ${(spansBytes / 1e6).toFixed(1)} MB of spans exported)${values.quick ? " (quick: a smoke test, not a measurement)" : ""}`,
);
