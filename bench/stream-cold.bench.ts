/**
 * The paced stream's first byte, cold, in process: what issue 37's `stream-1` line pays.
 * That scenario sends a stream every 100 ms, and whatever the gateway's path does not
 * touch for 100 ms (its code, its tables) has left the core's caches by the next call, so
 * its first byte costs several times what a warm one does. Here the real runtime and app
 * (bench/lib/in-process.ts) answer stream-1's request, the provider's events given from
 * memory one at a time, and three figures are read, each right after 100 ms asleep:
 *
 * - call: app.handle of the streamed chat request until its first chunk is read;
 * - scan: the scanner alone on the call's prompt (a fresh copy, as a request's is);
 * - prose: the scanner alone on a 1 KB text not seen before (bench/scenarios.ts variedProse).
 *
 * With `--base REV`, each round runs one fresh process per tree, the base's and then this
 * tree's (the same bench/ on both sides), so a loaded machine slows both alike; a side's
 * figure is the median over all its pauses, the verdict the median of the rounds' ratios.
 *
 *   bun bench/stream-cold.bench.ts [--pauses 60]                       # this tree alone
 *   bun bench/stream-cold.bench.ts --base REV [--rounds 5] [--pauses 60]
 */
import { parseArgs } from "node:util";
import { scanText } from "../src/pipeline/scan/engine.ts";
import { alternatingRevisions } from "./lib/alternating-revisions.ts";
import { capture, gatewayInProcess, requestBuilder } from "./lib/in-process.ts";
import { PROVIDER_KEY } from "./lib/processes.ts";
import { median } from "./lib/stats.ts";
import { SCENARIOS, variedProse } from "./scenarios.ts";

const PAUSE_MS = 100;

/** Per pause, µs of wall time: each array holds one sample per pause. */
export interface ColdSamples {
  call: number[];
  scan: number[];
  prose: number[];
  /** The same call back to back, for the warm figure beside the cold one. */
  warmCall: number[];
}

/** The provider's events one at a time: the first on the event loop's next turn, the rest a turn later. */
function streamed(body: string, status: number, headers: [string, string][]): () => Promise<Response> {
  const events = body.split(/(?<=\n\n)/);
  const bytes = events.map((e) => new TextEncoder().encode(e));
  const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
  return async () => {
    await turn();
    let next = 0;
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (next > 0) await turn();
        if (next < bytes.length) controller.enqueue(bytes[next++] as Uint8Array);
        if (next >= bytes.length) controller.close();
      },
    });
    return new Response(stream, { status, headers });
  };
}

/** One tree's samples: `pauses` of each kind, after `warm` streams back to back. */
export async function coldStreamSamples(pauses = 60, warm = 3000): Promise<ColdSamples> {
  const scenario = SCENARIOS.find((s) => s.id === "stream-1");
  if (!scenario) throw new Error("no scenario stream-1");
  // The provider is sent the model without the gateway's provider prefix, and answers as it.
  const upstream = scenario.request({ live: PROVIDER_KEY, test: PROVIDER_KEY });
  upstream.body = upstream.body?.replace('"model":"openai/', '"model":"');
  const canned = await capture(upstream);
  const gw = await gatewayInProcess(canned, streamed(canned.body, canned.status, canned.headers));
  try {
    const req = scenario.request({ live: gw.apiKey, test: gw.apiKey });
    const prompt = (JSON.parse(req.body ?? "{}") as { messages: { content: string }[] }).messages[0]?.content ?? "";
    const build = requestBuilder(req);
    const firstChunk = async () => {
      const started = performance.now();
      const res = await gw.app.handle(build());
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      const first = await reader.read();
      const us = (performance.now() - started) * 1000;
      if (res.status !== 200 || first.done) throw new Error(`status ${res.status}: no first chunk`);
      // A refusal (a substituted model) still answers 200, with an error event: not the path measured.
      const text = new TextDecoder().decode(first.value);
      if (!text.includes('"chat.completion.chunk"')) throw new Error(`not an answer's first chunk: ${text.slice(0, 200)}`);
      while (!(await reader.read()).done) {}
      return us;
    };
    const scanned = (text: string) => {
      const started = performance.now();
      scanText(text, { injection: true });
      return (performance.now() - started) * 1000;
    };
    for (let i = 0; i < warm; i++) await firstChunk();
    for (let i = 0; i < 5000; i++) scanText(variedProse(1024, (i % 256) + 1), { injection: true });
    const out: ColdSamples = { call: [], scan: [], prose: [], warmCall: [] };
    for (let i = 0; i < pauses; i++) {
      // Flat strings, as JSON.parse gives a request's text, and never scanned before.
      const copy = JSON.parse(JSON.stringify(prompt)) as string;
      const prose = JSON.parse(JSON.stringify(variedProse(1024, 1000 + i))) as string;
      await Bun.sleep(PAUSE_MS);
      out.call.push(await firstChunk());
      out.warmCall.push(await firstChunk());
      await Bun.sleep(PAUSE_MS);
      out.scan.push(scanned(copy));
      await Bun.sleep(PAUSE_MS);
      out.prose.push(scanned(prose));
    }
    return out;
  } finally {
    await gw.close();
  }
}

const KEYS = ["call", "warmCall", "scan", "prose"] as const;
const LABELS: Record<(typeof KEYS)[number], string> = {
  call: "stream call to its first chunk, after 100 ms asleep",
  warmCall: "the same call right after (warm)",
  scan: "scan of the call's prompt, after 100 ms asleep",
  prose: "scan of 1 KB unseen prose, after 100 ms asleep",
};

async function compare(base: string, rounds: number, pauses: number): Promise<void> {
  const sides = await alternatingRevisions<ColdSamples>(base, rounds, "bench/stream-cold.bench.ts", "coldStreamSamples", [pauses]);
  for (const key of KEYS) {
    const b = median(sides.base.flatMap((s) => s[key]));
    const t = median(sides.tree.flatMap((s) => s[key]));
    const ratios = sides.tree.map((s, i) => median(s[key]) / median(sides.base[i]?.[key] ?? []));
    const each = ratios.map((x) => x.toFixed(2)).join(" ");
    console.log(
      `${LABELS[key].padEnd(52)} ${base}: ${b.toFixed(1)} µs  tree: ${t.toFixed(1)} µs  ratio ${median(ratios).toFixed(3)} (${each})`,
    );
  }
}

if (import.meta.main) {
  const { values: args } = parseArgs({
    options: {
      base: { type: "string" },
      rounds: { type: "string", default: "5" },
      pauses: { type: "string", default: "60" },
    },
  });
  if (args.base) await compare(args.base, Number(args.rounds), Number(args.pauses));
  else {
    const s = await coldStreamSamples(Number(args.pauses));
    for (const key of KEYS) console.log(`${LABELS[key].padEnd(52)} ${median(s[key]).toFixed(1)} µs`);
  }
  process.exit(0);
}
