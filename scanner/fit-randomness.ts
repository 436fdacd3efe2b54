/**
 * Fits the character model that tells a machine-generated value from a word, a name or a
 * path (src/pipeline/scan/randomness-model.ts), for the generic credential detector:
 *
 *   bun scanner/fit-randomness.ts          (writes the model, prints its errors on the fitting data)
 *
 * test/scanner/fit-randomness.test.ts holds the committed model to what a fit gives.
 *
 * Natural tokens: the words, identifiers, paths and numbers of the pools' benign rows
 * (train.jsonl, train-v2.jsonl, train-v3.jsonl), and identifiers built from their words the
 * way code and infrastructure write them (camelCase, snake_case, dotted packages, paths,
 * versions, resource names with a hash suffix). Random tokens: drawn with a seed from the
 * alphabets key generators use. No held-out row is read.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FEATURES, features } from "../src/pipeline/scan/randomness-features.ts";
import { pick, random } from "./carriers.ts";

const DATA = join(import.meta.dir, "data");
const OUT = join(import.meta.dir, "../src/pipeline/scan/randomness-model.ts");
export interface RandomnessModel {
  bigram: number[][];
  weights: number[];
  threshold: number;
  /** The fitting data's errors: natural tokens taken for generated, generated ones taken for natural. */
  taken: string[];
  missed: string[];
  natural: number;
  generated: number;
}

/** The fit, from the pools' benign rows and the seeded draws: the same data gives the same model. */
export function fitRandomness(): RandomnessModel {
  const next = random(5);

  const benignTexts = ["train.jsonl", "train-v2.jsonl", "train-v3.jsonl"].flatMap((f) =>
    readFileSync(join(DATA, f), "utf8")
      .split("\n")
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as { category: string; text: string })
      .filter((r) => r.category === "benign")
      .map((r) => r.text),
  );

  /** Runs of token characters, as the detector reads a value. */
  const runs = (text: string) => text.match(/[A-Za-z0-9+/=_.~-]{8,128}/g) ?? [];
  const words = [...new Set(benignTexts.flatMap((t) => t.match(/\b[a-z]{3,12}\b/g) ?? []))];

  const cap = (w: string) => w[0]?.toUpperCase() + w.slice(1);
  const some = (n: number) => Array.from({ length: n }, () => pick(next, words));
  const digits = (n: number) => Array.from({ length: n }, () => Math.floor(next() * 10)).join("");
  const from = (alphabet: string, n: number) => Array.from({ length: n }, () => alphabet[Math.floor(next() * alphabet.length)]).join("");
  const LOWER = "abcdefghijklmnopqrstuvwxyz";
  const HEXL = "0123456789abcdef";
  const ALNUM = `${LOWER}${LOWER.toUpperCase()}0123456789`;

  /** Identifiers of the kinds code, configuration and infrastructure write. */
  function identifier(): string {
    const ws = some(2 + Math.floor(next() * 3));
    switch (Math.floor(next() * 11)) {
      case 0:
        return ws[0] + ws.slice(1).map(cap).join("");
      case 1:
        return ws.map(cap).join("");
      case 2:
        return ws.join("_");
      case 3:
        return ws.join("_").toUpperCase();
      case 4:
        return ws.join("-");
      case 5:
        return `com.${ws.join(".")}`;
      case 6:
        return `/${ws.join("/")}${pick(next, ["", ".json", ".yaml", ".ts", ".log"])}`;
      case 7:
        return `${digits(1)}.${digits(2)}.${digits(1)}${pick(next, ["", "-beta.1", "-rc2", "+build5"])}`;
      case 8:
        // A resource with a generated suffix (a Kubernetes pod, a bucket): words, then a short hash.
        return `${ws.join("-")}-${from(HEXL, 9)}-${from(`${LOWER}0123456789`, 5)}`;
      case 9:
        return `${ws.join("_")}${digits(2)}`;
      default:
        return `${ws[0]}${cap(ws[1] ?? "")}V${digits(1)}`;
    }
  }

  /** What key generators write: base62, base64 and its URL form, base36, upper-case base32. */
  function token(): string {
    const n = 12 + Math.floor(next() * 52);
    switch (Math.floor(next() * 6)) {
      case 0:
        return from(ALNUM, n);
      case 1:
        return `${from(`${ALNUM}+/`, n - (n % 4))}`;
      case 2:
        return from(`${ALNUM}-_`, n);
      case 3:
        return from(`${LOWER}0123456789`, n);
      case 4:
        return from("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", n);
      default:
        return from(LOWER, Math.max(n, 16));
    }
  }

  const natural = [...benignTexts.flatMap(runs).filter((r) => !/^[0-9a-f.-]+$/i.test(r)), ...Array.from({ length: 6000 }, identifier)];
  const generated = Array.from({ length: 6000 }, token);

  /** Bigram counts over the folded alphabet, from the natural tokens alone, smoothed. */
  const SYMBOLS = 29;
  const counts = Array.from({ length: SYMBOLS }, () => new Array<number>(SYMBOLS).fill(0.5));
  const symbol = (c: string) => {
    const code = c.toLowerCase().charCodeAt(0);
    return code >= 97 && code <= 122 ? code - 97 : code >= 48 && code <= 57 ? 26 : 27;
  };
  const count = (a: number, b: number) => {
    const row = counts[a] as number[];
    row[b] = (row[b] as number) + 1;
  };
  for (const t of natural) {
    let a = 28;
    for (const c of t) {
      const b = symbol(c);
      count(a, b);
      a = b;
    }
    count(a, 28);
  }
  const bigram = counts.map((row) => {
    const sum = row.reduce((s, n) => s + n, 0);
    return row.map((n) => Math.round(-Math.log2(n / sum) * 10) / 10);
  });

  /** Logistic regression over the features, by plain gradient descent. */
  const rows = [...natural.map((t) => ({ x: features(t, bigram), y: 0 })), ...generated.map((t) => ({ x: features(t, bigram), y: 1 }))];
  const weights = new Array<number>(FEATURES + 1).fill(0);
  const score = (x: number[]) => x.reduce((s, v, i) => s + v * (weights[i] as number), weights[FEATURES] as number);
  for (let epoch = 0; epoch < 2000; epoch++) {
    const grad = new Array<number>(FEATURES + 1).fill(0);
    for (const r of rows) {
      const p = 1 / (1 + Math.exp(-score(r.x)));
      const e = p - r.y;
      r.x.forEach((v, i) => {
        grad[i] = (grad[i] as number) + e * v;
      });
      grad[FEATURES] = (grad[FEATURES] as number) + e;
    }
    for (let i = 0; i <= FEATURES; i++) weights[i] = (weights[i] as number) - (2 * (grad[i] as number)) / rows.length;
  }

  // The threshold: no more than one natural token in 500 taken for random, precision first.
  const naturalScores = natural.map((t) => score(features(t, bigram))).sort((a, b) => b - a);
  const threshold = Math.max(0, naturalScores[Math.floor(naturalScores.length / 500)] as number);
  const missed = generated.filter((t) => score(features(t, bigram)) <= threshold);
  const taken = natural.filter((t) => score(features(t, bigram)) > threshold);
  return {
    bigram,
    weights: weights.map((w) => Math.round(w * 1000) / 1000),
    threshold: Math.round(threshold * 1000) / 1000,
    taken,
    missed,
    natural: natural.length,
    generated: generated.length,
  };
}

if (import.meta.main) {
  const model = fitRandomness();
  console.log(
    `natural ${model.natural}, taken for random ${model.taken.length}; generated ${model.generated}, missed ${model.missed.length}`,
  );
  console.log(`weights ${model.weights.join(" ")}, threshold ${model.threshold}`);
  writeFileSync(
    OUT,
    `/** Generated by scanner/fit-randomness.ts: the character model of randomness.ts (bigram costs in bits over a-z, digit, other, boundary; logistic weights). */
export const BIGRAM_BITS: readonly (readonly number[])[] = ${JSON.stringify(model.bigram)};
export const WEIGHTS: readonly number[] = ${JSON.stringify(model.weights)};
export const THRESHOLD = ${model.threshold};
`,
  );
  // In the repository's format, so that a fit of the same data leaves the file unchanged.
  Bun.spawnSync([join(import.meta.dir, "../node_modules/.bin/biome"), "format", "--write", OUT]);
  if (process.argv.includes("--show")) {
    console.log("taken:", model.taken.slice(0, 40).join("  "));
    console.log("missed:", model.missed.slice(0, 40).join("  "));
  }
}
