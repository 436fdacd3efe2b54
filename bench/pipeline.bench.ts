/**
 * The gateway's own CPU per request with the network taken out (bench/lib/in-process.ts:
 * the real runtime and app in this process, the provider answered from memory with the
 * mock's own bytes). What the harness itself costs (building a Request, the canned
 * answer) is measured alone and subtracted. Far less noisy than the HTTP rounds, so a
 * change of a microsecond shows. The minimal path (bench/lib/minimal-path.ts: the
 * required stages alone, flat) runs through the same harness, as the floor to compare
 * with. Profile with
 *
 *   bun --cpu-prof --cpu-prof-dir=/tmp/prof bench/pipeline.bench.ts [--requests N]
 *
 *   bun bench/pipeline.bench.ts [--requests 200000] [--concurrency 50] [--scenario chat-1k-50]
 */
import { parseArgs } from "node:util";
import { cpuPerCall, openInProcess } from "./lib/in-process.ts";
import { median } from "./lib/stats.ts";

export interface PipelineResult {
  scenario: string;
  /** CPU µs per request of the gateway's code (harness cost subtracted). */
  microsPerRequest: number;
  /** CPU µs per request of the harness alone (Request, canned answer, reading it). */
  harnessMicros: number;
  /** The same for the minimal path (bench/lib/minimal-path.ts: the required stages alone, flat); chat scenarios only. */
  minimalMicrosPerRequest: number | null;
}

const ROUNDS = 3;

export async function runPipelineBench(opts: { scenario?: string; requests?: number; concurrency?: number } = {}): Promise<PipelineResult> {
  const requests = opts.requests ?? 200_000;
  const concurrency = opts.concurrency ?? 50;
  const p = await openInProcess(opts.scenario);
  try {
    const kinds = [p.harness, p.gateway, ...(p.minimal ? [p.minimal] : [])];
    const warm = Math.min(20_000, requests);
    for (const send of kinds) await cpuPerCall(send, warm, concurrency);
    // Alternating rounds, as in the HTTP suite: whatever the process carries (heap, timers) weighs on each alike.
    const samples = kinds.map(() => [] as number[]);
    const perRound = Math.max(1, Math.round(requests / ROUNDS));
    for (let round = 0; round < ROUNDS; round++)
      for (const [i, send] of kinds.entries()) samples[i]?.push(await cpuPerCall(send, perRound, concurrency));
    const [harnessMicros = 0, total = 0, minimalTotal] = samples.map(median);
    return {
      scenario: p.scenario.id,
      microsPerRequest: total - harnessMicros,
      harnessMicros,
      minimalMicrosPerRequest: minimalTotal === undefined ? null : minimalTotal - harnessMicros,
    };
  } finally {
    await p.close();
  }
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: { scenario: { type: "string" }, requests: { type: "string" }, concurrency: { type: "string" } },
  });
  const r = await runPipelineBench({
    scenario: values.scenario,
    requests: values.requests ? Number(values.requests) : undefined,
    concurrency: values.concurrency ? Number(values.concurrency) : undefined,
  });
  console.log(
    `${r.scenario}: ${r.microsPerRequest.toFixed(1)} µs of CPU per request in the gateway's code (harness ${r.harnessMicros.toFixed(1)} µs, subtracted)`,
  );
  if (r.minimalMicrosPerRequest !== null)
    console.log(`${r.scenario}: ${r.minimalMicrosPerRequest.toFixed(1)} µs in the minimal path's (the required stages alone, flat)`);
}
