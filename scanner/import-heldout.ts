/**
 * Imports the held-out injection sources (scanner/data/injection-heldout.jsonl) from a copy
 * of each source's files, split before their first scan into a `tune` half (its misses may be
 * read to widen rules and generated rows) and a `held-out` half (judged for counts only, never
 * read for misses). Prints counts only. Neither half is trained on: scanner/train.ts's
 * loadTrainingRows never reads the file (test/scanner/heldout-injections.test.ts).
 *
 *   bun scanner/import-heldout.ts promptmap <checkout of utkusen/promptmap>
 *   bun scanner/import-heldout.ts rebuff <checkout of protectai/rebuff>
 *   bun scanner/import-heldout.ts patt <checkout of swisskyrepo/PayloadsAllTheThings>
 *
 * The split: within a source and a label, rows sorted by their file (and place in it), taken
 * alternately, so a file (one attack in promptmap) lands whole in one half.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type BlindRow, inTraining } from "./import-blind.ts";
import { loadTrainingRows } from "./train.ts";

export type HeldOutRow = BlindRow & { split: "tune" | "held-out" };
type Taken = Omit<BlindRow, "id" | "source" | "license" | "ref"> & { file: string; commit: string };

const PROMPTMAP_RULES = "e1ab109e968bbd97b1718162617777d711fca566";
const PROMPTMAP_ENCODED = "60501dcca62622feaa0ff00f239273386ebf81d3";

/** promptmap's attack files: one `prompt:` each. The label is the kit's `type`, but for what it is not. */
const PROMPTMAP_FILES: Record<string, { commit: string; category: "injection" | "benign" } | { drop: string }> = {
  ...Object.fromEntries(
    ["", "_basic2", "_basic3", "_basic4", "_basic5", "_basic6", "_basic7", "_china", "_smartgpt", "_smartgpt2"].map((s) => [
      `rules/prompt_stealing/prompt_stealer${s}.yaml`,
      { commit: PROMPTMAP_RULES, category: "injection" as const },
    ]),
  ),
  "rules/prompt_stealing/prompt_stealer_basic8.yaml": { drop: "the same prompt as basic4" },
  "rules/prompt_stealer_encoded.yaml": { commit: PROMPTMAP_ENCODED, category: "injection" },
  "rules/prompt_stealer_encoded2.yaml": { commit: PROMPTMAP_ENCODED, category: "injection" },
  // jailbreakchat.com's prompts, which verazuo/jailbreak_llms collected too: the half of that source not in
  // train.jsonl is reserved for the evaluation, and these may stand in it (the overlap check drops only
  // those in our pools), so none is copied.
  ...Object.fromEntries(
    ["dan1", "dan2", "developer_mode", "jb", "jedi_mind", "moralizing_rant", "violet", "void"].map((n) => [
      `rules/jailbreak/${n}.yaml`,
      { drop: "a jailbreakchat prompt, possibly in jailbreak_llms' reserved half" },
    ]),
  ),
  // A harmful question inside a table or a function to complete: content safety, no order aimed at the assistant's rules.
  "rules/jailbreak/latex.yaml": { drop: "a harmful request as a table to fill, not an injection" },
  "rules/jailbreak/python1.yaml": { drop: "a harmful request as code to complete, not an injection" },
  ...Object.fromEntries(
    ["basic", "basic2", "translate", "typoglycemia"].map((n) => [
      `rules/distraction/distraction_${n}.yaml`,
      { commit: PROMPTMAP_RULES, category: "injection" as const },
    ]),
  ),
  // Off-topic questions the kit sends to see whether a bot leaves its task: ordinary prompts as text.
  ...Object.fromEntries(
    ["question", "question2", "translate2"].map((n) => [
      `rules/distraction/distraction_${n}.yaml`,
      { commit: PROMPTMAP_RULES, category: "benign" as const },
    ]),
  ),
};

const REBUFF: { file: string; commit: string; rows: (text: string) => { text: string; category: "injection" | "benign" }[] }[] = [
  {
    // user_string,likelihood_score: 0.9 and above an attack, 0.0 benign; the bare word "Ignore" (0.2) left out.
    file: "python-sdk/rebuff/user_input_examples.txt",
    commit: "bf37935bee67bff1ec4304289b48ced8d19984fb",
    rows: (text) =>
      [...text.matchAll(/^"(.*)",([\d.]+)$/gm)]
        .filter((m) => Number(m[2]) >= 0.9 || Number(m[2]) === 0)
        .map((m) => ({ text: m[1]!, category: Number(m[2]) >= 0.9 ? "injection" : "benign" })),
  },
  {
    // The attacks rebuff seeds its vector store with, one quoted a line.
    file: "python-sdk/rebuff/utils/documents.txt",
    commit: "12c63b08177db8edddadff8b593d418b41fd5557",
    rows: (text) => [...text.matchAll(/^"(.*)"\s*$/gm)].map((m) => ({ text: m[1]!, category: "injection" })),
  },
  {
    // The test fixtures prompt_injection_inputs and benign_inputs.
    file: "python-sdk/tests/conftest.py",
    commit: "01c883025b8ffb74c9d81c58bbf2a1b0dc328198",
    rows: (text) =>
      (["prompt_injection_inputs", "benign_inputs"] as const).flatMap((fixture) => {
        const body = text.slice(text.indexOf(`def ${fixture}(`)).split("return")[0] ?? "";
        return [...body.matchAll(/^\s+"(.*)",$/gm)].map((m) => ({
          text: m[1]!,
          category: fixture === "benign_inputs" ? ("benign" as const) : ("injection" as const),
        }));
      }),
  },
];

const PATT_FILE = "Prompt Injection/README.md";
const PATT_COMMIT = "052b70e6038b5ee4da5ca93417540d6ae6f53472";
/** The example prompts of the page's list, by their label: an order aimed at the model's instructions, or left out. */
const PATT_LABELS: Record<string, "injection" | null> = {
  "Force output": "injection",
  "Leak prompt": "injection",
  "Force XSS output": "injection",
  "Force SQLi output": "injection",
  // A plain request for a URL or a record: whether it is an attack depends on the app, not the text.
  "SSRF vulnerability": null,
  "Data leakage": null,
};

/** PayloadsAllTheThings' prompt-injection page: its example payloads. */
function pattRows(page: string): { text: string; category: "injection"; at: number }[] {
  const block = (from: number) => {
    const m = /```\n([\s\S]*?)\n\s*```/.exec(page.slice(from));
    return m
      ? m[1]!
          .split("\n")
          .map((l) => l.trim())
          .join("\n")
          .trim()
      : "";
  };
  const out: { text: string; category: "injection"; at: number }[] = [];
  // Its "act as" prompts are f/awesome-chatgpt-prompts', whose half not in train.jsonl is reserved: not taken.
  for (const m of page.matchAll(/^\* ([^:`\n]+): `([^`]+)`/gm))
    if (PATT_LABELS[m[1]!] === "injection") out.push({ text: m[2]!, category: "injection", at: m.index });
  for (const m of page.matchAll(/^\* Cross Plugin Request Forgery[^\n]*$/gm))
    out.push({ text: block(m.index), category: "injection", at: m.index });
  for (const m of page.matchAll(/^\| RCE Test w\/ Jailbreak \| Test LLM Jailbreak \| `([^`]+)`/gm))
    out.push({ text: m[1]!, category: "injection", at: m.index });
  // The "hacker" jailbreak's messages, sent one after another; the hexadecimal payload alone is no text to judge.
  for (const m of page.matchAll(/^> (?!X = )(.+)$/gm)) out.push({ text: m[1]!.trim(), category: "injection", at: m.index });
  return out.filter((r) => r.text !== "");
}

const SOURCES: Record<string, { source: string; repo: string; license: string; rows: (dir: string) => Taken[] }> = {
  patt: {
    source: "swisskyrepo/PayloadsAllTheThings",
    repo: "swisskyrepo/PayloadsAllTheThings",
    license: "MIT",
    rows: (dir) =>
      pattRows(readFileSync(join(dir, PATT_FILE), "utf8")).map(({ at, ...r }) => ({
        ...r,
        file: `${PATT_FILE}#${String(at).padStart(6, "0")}`,
        commit: PATT_COMMIT,
        kind: "patt:payload",
        lang: "en",
      })),
  },
  promptmap: {
    source: "utkusen/promptmap",
    repo: "utkusen/promptmap",
    license: "MIT",
    rows: (dir) =>
      Object.entries(PROMPTMAP_FILES).flatMap(([file, spec]) => {
        if ("drop" in spec) return [];
        const prompt = String((Bun.YAML.parse(readFileSync(join(dir, file), "utf8")) as { prompt: string }).prompt).trim();
        const lang = /[\u4e00-\u9fff]/.test(prompt) ? "zh" : file.endsWith("translate2.yaml") ? "de" : "en";
        return [{ file, commit: spec.commit, category: spec.category, kind: `promptmap:${file.split("/").at(-2)}`, lang, text: prompt }];
      }),
  },
  rebuff: {
    source: "protectai/rebuff",
    repo: "protectai/rebuff",
    license: "Apache-2.0",
    rows: (dir) =>
      REBUFF.flatMap(({ file, commit, rows }) =>
        rows(readFileSync(join(dir, file), "utf8")).map((r, i) => ({
          ...r,
          file: `${file}#${String(i).padStart(3, "0")}`,
          commit,
          kind: `rebuff:${file.split("/").at(-1)}`,
          lang: "en",
        })),
      ),
  },
};

/** Sorted by file within each label, alternately tune and held-out (the first tune). */
export function split<T extends { file: string; category: string }>(rows: T[]): (T & { split: HeldOutRow["split"] })[] {
  return ["injection", "benign"].flatMap((category) =>
    rows
      .filter((r) => r.category === category)
      .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))
      .map((r, i) => ({ ...r, split: i % 2 === 0 ? ("tune" as const) : ("held-out" as const) })),
  );
}

export const HELDOUT_FILE = join(import.meta.dir, "data/injection-heldout.jsonl");

if (import.meta.main) {
  const [name, dir] = process.argv.slice(2);
  const spec = name ? SOURCES[name] : undefined;
  if (!spec || !dir) throw new Error(`usage: bun scanner/import-heldout.ts <${Object.keys(SOURCES).join("|")}> <checkout>`);
  const known = inTraining(loadTrainingRows().map((r) => r.text));
  const all = spec.rows(dir);
  const kept = split(all.filter((r) => !known(r.text)));
  const others = readFileSync(HELDOUT_FILE, { encoding: "utf8", flag: "a+" })
    .split("\n")
    .filter((l) => l.trim() !== "" && (JSON.parse(l) as HeldOutRow).source !== spec.source);
  const rows = kept.map(({ file, commit, ...r }, i) =>
    JSON.stringify({
      id: `heldout-${name}-${String(i + 1).padStart(4, "0")}`,
      source: spec.source,
      ...r,
      license: spec.license,
      ref: `${spec.repo}@${commit}:${file.split("#")[0]}`,
    }),
  );
  writeFileSync(HELDOUT_FILE, `${[...others, ...rows].join("\n")}\n`);
  const count = (s: string, c: string) => kept.filter((r) => r.split === s && r.category === c).length;
  console.log(
    `${spec.source}: ${all.length} rows read, ${all.length - kept.length} dropped as already in training; ` +
      `tune ${count("tune", "injection")} injection + ${count("tune", "benign")} benign, held-out ${count("held-out", "injection")} + ${count("held-out", "benign")}`,
  );
}
