/**
 * Memory and endurance. The gateway's resident set idle; a soak of 1 KB chat calls at
 * 50 connections (300 s in a full run: the budget's five minutes, past a million
 * requests) with the resident set sampled throughout; and a gateway whose store holds
 * 100,000 API keys, each presented once so that all of them sit in its key cache.
 *
 *   bun bench/memory.bench.ts [--quick] [--soak-seconds N]
 */
import { rmSync } from "node:fs";
import { runLoad } from "./lib/load.ts";
import { newDataDir, Started, startGateway, startMock } from "./lib/processes.ts";
import { memoryMiB } from "./lib/proc-stats.ts";
import { seedKeys } from "./lib/seed-keys.ts";
import { gatewayTarget, OPEN_RATE_LIMIT } from "./lib/targets.ts";
import { SCENARIOS } from "./scenarios.ts";

export interface MemoryResult {
  idleMiB: number;
  soak: {
    seconds: number;
    requests: number;
    errors: number;
    statuses: Record<string, number>;
    /** Resident set at the end of the first fifth of the soak (warm: JIT and pools settled), and at its end. */
    warmMiB: number;
    endMiB: number;
    /** endMiB over warmMiB, minus one. */
    growth: number;
  };
  keys: { count: number; idleMiB: number; cachedMiB: number; errors: number };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function soak(seconds: number): Promise<{ idleMiB: number; soak: MemoryResult["soak"] }> {
  const started = new Started();
  try {
    const mock = started.add(await startMock());
    const gw = await gatewayTarget("gateway", "gateway (soak)", mock.url, undefined, OPEN_RATE_LIMIT);
    started.add(gw.proc);
    await sleep(1000);
    const idleMiB = memoryMiB(gw.target.pid).rss;
    const scenario = SCENARIOS.find((s) => s.id === "chat-1k-50");
    if (!scenario) throw new Error("scenario chat-1k-50 is missing");
    const samples: { at: number; rss: number }[] = [];
    const soakStart = performance.now();
    const sampler = setInterval(() => samples.push({ at: (performance.now() - soakStart) / 1000, rss: memoryMiB(gw.target.pid).rss }), 500);
    const load = await runLoad(gw.target.url, scenario.request(gw.target.credentials), { connections: 50, seconds, expectStatus: 200 });
    clearInterval(sampler);
    const endMiB = memoryMiB(gw.target.pid).rss;
    const warmMiB = samples.find((s) => s.at >= seconds / 5)?.rss ?? samples[0]?.rss ?? endMiB;
    return {
      idleMiB,
      soak: {
        seconds,
        requests: load.requests,
        errors: load.errors,
        statuses: load.statuses,
        warmMiB,
        endMiB,
        growth: endMiB / warmMiB - 1,
      },
    };
  } finally {
    await started.stopAll();
  }
}

/** Presents every key once, 50 at a time, so that all of them are in the cache. */
async function touchAll(url: string, keys: string[]): Promise<number> {
  let next = 0;
  let errors = 0;
  const worker = async () => {
    while (next < keys.length) {
      const key = keys[next++] as string;
      const res = await fetch(`${url}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
      if (res.status !== 200) errors++;
      await res.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: 50 }, worker));
  return errors;
}

async function manyKeys(count: number): Promise<MemoryResult["keys"]> {
  const data = newDataDir();
  try {
    const { values } = await seedKeys(data.dir, count);
    const gw = await startGateway({ dataDir: data.dir, env: OPEN_RATE_LIMIT });
    try {
      await sleep(1000);
      const idleMiB = memoryMiB(gw.pid).rss;
      const errors = await touchAll(gw.url, values);
      return { count, idleMiB, cachedMiB: memoryMiB(gw.pid).rss, errors };
    } finally {
      await gw.stop();
    }
  } finally {
    rmSync(data.dir, { recursive: true, force: true });
  }
}

export async function runMemoryBench(opts: { quick: boolean; soakSeconds?: number }): Promise<MemoryResult> {
  const s = await soak(opts.soakSeconds ?? (opts.quick ? 3 : 300));
  const keys = await manyKeys(opts.quick ? 2_000 : 100_000);
  return { idleMiB: s.idleMiB, soak: s.soak, keys };
}

if (import.meta.main) {
  const at = process.argv.indexOf("--soak-seconds");
  console.log(
    await runMemoryBench({ quick: process.argv.includes("--quick"), soakSeconds: at > 0 ? Number(process.argv[at + 1]) : undefined }),
  );
}
