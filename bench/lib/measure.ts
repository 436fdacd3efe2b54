/**
 * One scenario against its targets: a warm-up, then rounds in alternation (A B C A B
 * C) so that a noisy neighbour on this shared machine hits every target alike. Each
 * target's figures are the medians of its rounds; CPU per request comes from the
 * target process's own counters over the rounds.
 */
import type { Scenario } from "../scenarios.ts";
import { runLoad, type LoadResult, type StreamTiming, timeStreams } from "./load.ts";
import { cpuMicros, mainThreadCpuMicros, memoryMiB } from "./proc-stats.ts";
import type { Row } from "./report.ts";
import { median } from "./stats.ts";
import type { Target } from "./targets.ts";

export interface Timing {
  warmupSeconds: number;
  roundSeconds: number;
  rounds: number;
}

interface Sample {
  load?: LoadResult;
  stream?: StreamTiming;
  cpuPerRequest: number;
  mainCpuPerRequest: number;
}

async function once(s: Scenario, t: Target, seconds: number): Promise<Sample> {
  const req = s.request(t.credentials);
  const before = cpuMicros(t.pid);
  const mainBefore = mainThreadCpuMicros(t.pid);
  const perRequest = (requests: number) => ({
    cpuPerRequest: (cpuMicros(t.pid) - before) / Math.max(1, requests),
    mainCpuPerRequest: (mainThreadCpuMicros(t.pid) - mainBefore) / Math.max(1, requests),
  });
  if (s.mode === "stream-timing") {
    const stream = await timeStreams(t.url, req, seconds);
    return { stream, ...perRequest(stream.requests) };
  }
  const load = await runLoad(t.url, req, { connections: s.connections, seconds, expectStatus: s.expectStatus });
  return { load, ...perRequest(load.requests) };
}

const med = (samples: Sample[], f: (s: Sample) => number | undefined) => median(samples.map(f).filter((v): v is number => v !== undefined));

export async function measureScenario(s: Scenario, targets: Target[], timing: Timing, progress: (line: string) => void): Promise<Row[]> {
  const samples = new Map<Target, Sample[]>(targets.map((t) => [t, []]));
  let warmupErrors = 0;
  for (const t of targets) {
    const w = await once(s, t, timing.warmupSeconds);
    warmupErrors += s.warmupAnyStatus ? (w.load?.socketErrors ?? 0) : (w.load?.errors ?? w.stream?.errors ?? 0);
  }
  for (let round = 0; round < timing.rounds; round++) {
    for (const t of targets) {
      const sample = await once(s, t, timing.roundSeconds);
      samples.get(t)?.push(sample);
      const rps = sample.load ? `${Math.round(sample.load.rps)} req/s` : `${sample.stream?.requests} streams`;
      progress(`  ${s.id} round ${round + 1}/${timing.rounds} ${t.label}: ${rps}`);
    }
  }
  const rows: Row[] = targets.map((t) => {
    const list = samples.get(t) ?? [];
    return {
      scenario: s.id,
      title: s.title,
      target: t.label,
      kind: t.kind,
      rps: s.mode === "load" ? med(list, (x) => x.load?.rps) : undefined,
      p50: med(list, (x) => x.load?.p50),
      p90: med(list, (x) => x.load?.p90),
      p99: med(list, (x) => x.load?.p99),
      cpuPerRequest: t.kind === "direct" ? undefined : med(list, (x) => x.cpuPerRequest),
      mainCpuPerRequest: t.kind === "direct" ? undefined : med(list, (x) => x.mainCpuPerRequest),
      ttfbP50: med(list, (x) => x.stream?.ttfbP50),
      totalP50: med(list, (x) => x.stream?.totalP50),
      readsP50: med(list, (x) => x.stream?.readsP50),
      peakRssMiB: memoryMiB(t.pid).peak,
      errors: list.reduce((n, x) => n + (x.load?.errors ?? x.stream?.errors ?? 0), 0) + (t === targets[0] ? warmupErrors : 0),
    };
  });
  // Ratios against the bare proxy and latency added over the direct call, within this scenario.
  const bare = rows.find((r) => r.kind === "bare");
  const direct = rows.find((r) => r.kind === "direct");
  for (const r of rows) {
    if (bare && r.kind !== "direct") {
      if (r.rps !== undefined && bare.rps) r.rpsVsBare = r.rps / bare.rps;
      if (r.cpuPerRequest !== undefined && bare.cpuPerRequest) r.cpuVsBare = r.cpuPerRequest / bare.cpuPerRequest;
    }
    if (direct && r.kind !== "direct") {
      if (s.connections === 1 && s.mode === "load") {
        r.addedP50 = (r.p50 ?? 0) - (direct.p50 ?? 0);
        r.addedP99 = (r.p99 ?? 0) - (direct.p99 ?? 0);
      }
      if (s.mode === "stream-timing") r.ttfbAdded = (r.ttfbP50 ?? 0) - (direct.ttfbP50 ?? 0);
    }
  }
  return rows;
}
