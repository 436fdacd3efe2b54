/**
 * Imports the blind evaluation rows (scanner/data/blind.jsonl) from a copy of a source's
 * file, without printing a row's text: only counts, lengths and languages, so no one
 * tunes a rule on what they read here. Rows whose words already stand in a training row
 * (a third of its five-word runs: the same attack reached the pools through another
 * source) are dropped: blind means never trained on.
 *
 *   bun scanner/import-blind.ts langkit <copy of whylabs/langkit's langkit/metrics/themes/themes.json>
 *
 * Nothing here is trained on: scanner/train.ts's loadTrainingRows never reads blind.jsonl
 * (test/scanner/blind.test.ts), and only scanner/evaluate-blind.ts judges it.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadTrainingRows } from "./train.ts";

export interface BlindRow {
  id: string;
  source: string;
  category: "injection" | "benign";
  kind: string;
  lang: string;
  text: string;
  license: string;
  ref: string;
}

/** Each source the importer knows: where its rows are in the copied file, and its attribution. */
const SOURCES: Record<
  string,
  { source: string; license: string; ref: string; rows: (file: string) => Omit<BlindRow, "id" | "source" | "license" | "ref">[] }
> = {
  langkit: {
    source: "whylabs/langkit",
    license: "Apache-2.0",
    ref: "whylabs/langkit@96aca5c14d035181cbb1a6c3d75dfbefb5b4daa9:langkit/metrics/themes/themes.json",
    // The "jailbreak" theme: the attack examples langkit's similarity metric compares prompts with.
    rows: (file) =>
      (JSON.parse(file) as { jailbreak: string[] }).jailbreak.map((text) => ({
        category: "injection",
        kind: "langkit:themes:jailbreak",
        lang: "en",
        text,
      })),
  },
};

const words = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim()
    .split(" ")
    .filter(Boolean);

const SHINGLE = 5;
const shingles = (w: string[]) => Array.from({ length: Math.max(0, w.length - SHINGLE + 1) }, (_, i) => w.slice(i, i + SHINGLE).join(" "));

/** A test of "already in training": a third of a row's five-word runs in the training rows, or a short row's words whole inside one. */
export function inTraining(trainingTexts: string[]): (text: string) => boolean {
  const normalized = trainingTexts.map((t) => ` ${words(t).join(" ")} `);
  const seen = new Set(normalized.flatMap((t) => shingles(t.trim().split(" "))));
  return (text) => {
    const w = words(text);
    if (w.length < SHINGLE) return w.length === 0 || normalized.some((t) => t.includes(` ${w.join(" ")} `));
    const runs = shingles(w);
    return runs.filter((s) => seen.has(s)).length >= runs.length / 3;
  };
}

if (import.meta.main) {
  const [name, path] = process.argv.slice(2);
  const spec = name ? SOURCES[name] : undefined;
  if (!spec || !path) throw new Error(`usage: bun scanner/import-blind.ts <${Object.keys(SOURCES).join("|")}> <copied file>`);
  const known = inTraining(loadTrainingRows().map((r) => r.text));
  const all = spec.rows(readFileSync(path, "utf8"));
  const kept = all.filter((r) => !known(r.text));
  const out = join(import.meta.dir, "data/blind.jsonl");
  const others = readFileSync(out, { encoding: "utf8", flag: "a+" })
    .split("\n")
    .filter((l) => l.trim() !== "" && (JSON.parse(l) as BlindRow).source !== spec.source);
  const rows = kept.map((r, i) =>
    JSON.stringify({
      id: `blind-${name}-${String(i + 1).padStart(4, "0")}`,
      source: spec.source,
      ...r,
      license: spec.license,
      ref: spec.ref,
    }),
  );
  writeFileSync(out, `${[...others, ...rows].join("\n")}\n`);
  const lengths = kept.map((r) => r.text.length).sort((a, b) => a - b);
  const langs = [...new Set(kept.map((r) => r.lang))].join(",");
  console.log(
    `${spec.source}: ${all.length} rows read, ${all.length - kept.length} dropped as already in training, ${kept.length} kept ` +
      `(${kept.filter((r) => r.category === "injection").length} injection, ${kept.filter((r) => r.category === "benign").length} benign; ` +
      `length min ${lengths[0]}, median ${lengths[Math.floor(lengths.length / 2)]}, max ${lengths.at(-1)}; languages ${langs})`,
  );
}
