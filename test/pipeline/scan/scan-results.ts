/**
 * Every labeled row's full scan result (findings, score, confidence, the classifier's
 * logit, and the request-level verdict with its redactions), one line a row, and a
 * digest of each file's lines: what scan-results.test.ts holds the scanner to, so that a
 * change to the scanner's machinery alone can be shown to change no verdict.
 *
 *   bun test/pipeline/scan/scan-results.ts --write   # records the digests (only when rules, weights or rows change on purpose)
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { INJECTION_MODEL, windowLogit } from "../../../src/pipeline/scan/classifier.ts";
import { scanText } from "../../../src/pipeline/scan/engine.ts";
import { chatTexts } from "../../../src/pipeline/scan/request-texts.ts";
import { SecurityViolation, scanRequest } from "../../../src/pipeline/security-scan.ts";

const ROOT = join(import.meta.dir, "../../..");
export const DIGEST_FILE = join(import.meta.dir, "scan-results.digest.json");

/**
 * The labeled rows: the training data's and the corpus fixture's, by file (relative to the
 * repository). Not the blind rows (blind.jsonl) nor the held-out injection sources
 * (injection-heldout.jsonl): a verdict pinned here would be a test of the rules on them, and
 * they are judged apart (scanner/evaluate-blind.ts, scanner/evaluate-heldout.ts).
 */
export function labeledRows(): Record<string, string[]> {
  const files = [
    ...readdirSync(join(ROOT, "scanner/data"))
      .filter((f) => f.endsWith(".jsonl") && f !== "blind.jsonl" && f !== "injection-heldout.jsonl")
      .sort()
      .map((f) => `scanner/data/${f}`),
    "test/fixtures/scan-corpus.jsonl",
  ];
  return Object.fromEntries(
    files.map((file) => [
      file,
      readFileSync(join(ROOT, file), "utf8")
        .split("\n")
        .filter((l) => l.trim() !== "")
        .map((l) => (JSON.parse(l) as { text: string }).text),
    ]),
  );
}

/** What a request carrying `text` as its user turn becomes: blocked (category, kinds, report) or forwarded (header, the text as redacted). */
function requestOutcome(text: string): unknown {
  try {
    const v = scanRequest({ model: "m", messages: [{ role: "user", content: text }] }, chatTexts, "redact");
    const messages = v.body.messages as { content: string }[];
    return { header: v.header, flags: v.flags, forwarded: messages[0]?.content === text ? "unchanged" : messages[0]?.content };
  } catch (e) {
    if (!(e instanceof SecurityViolation)) throw e;
    return { blocked: e.block, report: e.report, flags: e.flags };
  }
}

/** One row's result as one line of JSON. */
export function rowResult(text: string): string {
  return JSON.stringify({
    judged: scanText(text, { injection: true }),
    owner: scanText(text, { injection: false }),
    logit: windowLogit(INJECTION_MODEL, text),
    request: requestOutcome(text),
  });
}

export function digests(rows: Record<string, string[]>): Record<string, { rows: number; sha256: string }> {
  return Object.fromEntries(
    Object.entries(rows).map(([file, texts]) => {
      const hash = createHash("sha256");
      for (const text of texts) hash.update(`${rowResult(text)}\n`);
      return [file, { rows: texts.length, sha256: hash.digest("hex") }];
    }),
  );
}

if (import.meta.main && process.argv.includes("--write")) {
  writeFileSync(DIGEST_FILE, `${JSON.stringify(digests(labeledRows()), null, 2)}\n`);
  console.log(`wrote ${DIGEST_FILE}`);
}
