/**
 * Held-out figures by source. For each public source, the classifier (and its
 * thresholds) is trained on every other source and the whole scanner (rules and that
 * classifier) judges the held-out source's rows, which it has never seen: bare, and
 * inside carriers built from the held-out carrier templates (carriers.ts), which no
 * training text used. Injection rows give recall, benign rows the share blocked.
 *
 *   bun scanner/evaluate.ts            every source left out whole (a few minutes)
 *   bun scanner/evaluate.ts --third    a fixed third of each source held out (one model)
 *   bun scanner/evaluate.ts --only "deepset/prompt-injections,openai/human-eval"
 *                                      only those sources left out (a quicker look while tuning)
 *   bun scanner/evaluate.ts --classifier   with a column of the classifier alone (its high level, no rules)
 */
import { classifierConfidence, type InjectionConfidence, type LinearModel } from "../src/pipeline/scan/classifier.ts";
import { scanText } from "../src/pipeline/scan/engine.ts";
import { CARRIER_KINDS, carry, random, TEMPLATES } from "./carriers.ts";
import { isOwn, loadTrainingRows, type Row, trainFinal } from "./train.ts";

export interface Figures {
  source: string;
  /** What was judged: "injection", "injection in e-mail", "benign", "benign, trigger words", ... */
  set: string;
  rows: number;
  /** Blocked by the rules alone; blocked (high) and flagged only (medium) by rules and classifier. */
  rules: number;
  blocked: number;
  flagged: number;
  /** Blocked by the classifier alone (its high level, no rules), when asked for (`--classifier`). */
  classifier?: number;
}

/** Whether judge() counts the classifier alone too (a column of the tables). */
const CLASSIFIER_ALONE = process.argv.includes("--classifier");

/** The words attacks also use, as train-v2's README lists them: a benign row holding one is a trigger-word row. */
export const TRIGGER_WORDS = /\b(?:ignore|instructions?|system|prompt|password|override|act as|forget|rules)\b/i;

export const confidence = (text: string, model: LinearModel | null): InjectionConfidence =>
  scanText(text, { injection: true, model }).injectionConfidence;

/** Texts judged for one held-out group of rows: bare, by kind, and each inside every held-out carrier. */
export function sets(rows: Row[]): [string, string[]][] {
  const next = random(31);
  const injection = rows.filter((r) => r.category === "injection");
  const benign = rows.filter((r) => r.category === "benign");
  const english = (r: Row) => ((r as Row & { lang?: string }).lang ?? "en") === "en";
  const out: [string, string[]][] = [
    ["injection", injection.map((r) => r.text)],
    ["injection, English", injection.filter(english).map((r) => r.text)],
    ["injection, other languages", injection.filter((r) => !english(r)).map((r) => r.text)],
    ["benign, ordinary", benign.filter((r) => !TRIGGER_WORDS.test(r.text)).map((r) => r.text)],
    ["benign, trigger words", benign.filter((r) => TRIGGER_WORDS.test(r.text)).map((r) => r.text)],
  ];
  for (const kind of CARRIER_KINDS) {
    out.push([`injection in ${kind}`, injection.map((r) => carry(kind, r.text, TEMPLATES.heldOut, next))]);
    out.push([`benign in ${kind}`, benign.filter((_, i) => i % 4 === 0).map((r) => carry(kind, r.text, TEMPLATES.heldOut, next))]);
  }
  return out.filter(([, texts]) => texts.length > 0);
}

export function judge(source: string, rows: Row[], model: LinearModel): Figures[] {
  return sets(rows).map(([set, texts]) => {
    const judged = texts.map((t) => confidence(t, model));
    return {
      source,
      set,
      rows: texts.length,
      rules: texts.filter((t) => confidence(t, null) === "high").length,
      blocked: judged.filter((c) => c === "high").length,
      flagged: judged.filter((c) => c === "medium").length,
      ...(CLASSIFIER_ALONE ? { classifier: texts.filter((t) => classifierConfidence(model, t) === "high").length } : {}),
    };
  });
}

const judgedSources = (rows: Row[]) =>
  [...new Set(rows.filter((r) => !isOwn(r) && (r.category === "injection" || r.category === "benign")).map((r) => r.source))].sort();

/** Each public source left out whole: the model and its thresholds never saw it. */
export function heldOutBySource(rows: Row[], only?: string[]): Figures[] {
  const out: Figures[] = [];
  for (const source of only ?? judgedSources(rows)) {
    const model = trainFinal(rows.filter((r) => r.source !== source));
    out.push(
      ...judge(
        source,
        rows.filter((r) => r.source === source),
        model,
      ),
    );
  }
  return out;
}

/** A fixed third of each source's rows, by a hash of the row id: never trained on when held out. */
export const heldOutRow = (r: Row) => Bun.hash.crc32(r.id) % 3 === 0;

/** Each source split in two: the classifier trained on two thirds of every source, judged on the last third. */
export function heldOutRows(rows: Row[]): Figures[] {
  const model = trainFinal(rows.filter((r) => isOwn(r) || !heldOutRow(r)));
  const held = rows.filter((r) => !isOwn(r) && heldOutRow(r));
  return judgedSources(held).flatMap((source) =>
    judge(
      source,
      held.filter((r) => r.source === source),
      model,
    ),
  );
}

/** Figures summed over sources, by set (every carrier's injections together as "injection in carriers"). */
export function totals(figures: Figures[]): Figures[] {
  const group = (set: string) =>
    set.startsWith("injection in") ? "injection in carriers" : set.startsWith("benign in") ? "benign in carriers" : set;
  const out = new Map<string, Figures>();
  for (const f of figures) {
    for (const set of new Set([f.set, group(f.set)])) {
      const t = out.get(set) ?? { source: "all held out", set, rows: 0, rules: 0, blocked: 0, flagged: 0 };
      t.rows += f.rows;
      t.rules += f.rules;
      t.blocked += f.blocked;
      t.flagged += f.flagged;
      if (f.classifier !== undefined) t.classifier = (t.classifier ?? 0) + f.classifier;
      out.set(set, t);
    }
  }
  return [...out.values()].sort((a, b) => a.set.localeCompare(b.set));
}

const rate = (n: number, d: number) => `${n}/${d} (${((100 * n) / d).toFixed(1)}%)`;

export function table(figures: Figures[]): string {
  const alone = figures.some((f) => f.classifier !== undefined);
  const lines = [
    `| source | set | rows | rules alone blocked |${alone ? " classifier alone blocked |" : ""} blocked (high) | flagged only (medium) |`,
    `|---|---|---|---|${alone ? "---|" : ""}---|---|`,
  ];
  for (const f of figures)
    lines.push(
      `| ${f.source} | ${f.set} | ${f.rows} | ${rate(f.rules, f.rows)} |${alone ? ` ${rate(f.classifier ?? 0, f.rows)} |` : ""} ${rate(f.blocked, f.rows)} | ${rate(f.flagged, f.rows)} |`,
    );
  return lines.join("\n");
}

/** Per source, bare rows only (the carriers and the language split are summed in the totals), then the totals. */
export function report(figures: Figures[]): string {
  const bare = figures.filter((f) => !f.set.includes(" in ") && !f.set.startsWith("injection, "));
  return `${table(bare)}\n\nTotals:\n\n${table(totals(figures))}`;
}

export function evaluateBySource(rows: Row[], third = false, only?: string[]): string {
  return third
    ? `A fixed third of each source held out:\n\n${report(heldOutRows(rows))}`
    : `Each source left out whole (trained on all the others):\n\n${report(heldOutBySource(rows, only))}`;
}

if (import.meta.main) {
  const at = process.argv.indexOf("--only");
  const only = at > 0 ? process.argv[at + 1]?.split(",") : undefined;
  console.log(evaluateBySource(loadTrainingRows(), process.argv.includes("--third"), only));
}
