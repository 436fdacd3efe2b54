/** The scanner tests' oracle: the scan with every pattern tried at every position, which the trigger pass must equal. */
import { type ScanOptions, scanAt, type TextScan } from "../../../src/pipeline/scan/engine.ts";
import { SPLITS_WORDS } from "../../../src/pipeline/scan/detector.ts";
import { foldedWordsOf, tellingOf } from "./telling-reference.ts";

/** What a global search of every pattern would find: the trigger pass's starts replaced by every position. */
export function scanExhaustively(text: string, opts: ScanOptions): TextScan {
  const every = Array.from({ length: text.length + 1 }, (_, i) => i);
  return scanAt(text, opts, {
    exact: every,
    folded: every,
    zeroWidth: SPLITS_WORDS.test(text),
    telling: tellingOf(text),
    foldedWords: foldedWordsOf(text),
  });
}

/** A scan's findings and score, for comparing two scans in a readable failure. */
export const scanSummary = (r: TextScan) => ({
  findings: r.findings.map((f) => `${f.category}:${f.kind}@${f.start}-${f.end}`),
  score: Math.round(r.injectionScore * 1000),
});
