/**
 * The scanner's second readings of a text that hides what it says: without its
 * zero-width characters, and with its JSON string escapes decoded. Each scans the
 * revealed text again (`rescan`, the engine's scanText) and adds what it finds to the
 * first reading's findings.
 */
import { ZERO_WIDTH } from "./detector.ts";
import { decodeJsonEscapes, rawOffsets } from "./json-escapes.ts";
import { type Finding, INJECTION_THRESHOLD, type ScanOptions, type TextScan } from "./scan-types.ts";

export type Rescan = (text: string, opts: ScanOptions) => TextScan;

/**
 * Zero-width characters can split the words injection detectors look for
 * ("ig\u200Bnore", "ignore\u200Ball"): the text is judged again without them, read
 * both ways (removed, and standing for spaces). Returns the score it adds.
 */
export function revealZeroWidth(text: string, findings: Finding[], rescan: Rescan): number {
  const again = (t: string) => rescan(t, { injection: true, depth: 1 }).injectionScore;
  const hidden = Math.max(again(text.replace(ZERO_WIDTH, "")), again(text.replace(ZERO_WIDTH, " ")));
  if (hidden < INJECTION_THRESHOLD) return 0;
  findings.push({ category: "injection", kind: "invisible_unicode", start: 0, end: text.length });
  return hidden;
}

/**
 * A JSON text (a tool result, mostly) read as the text its string escapes encode. An
 * injection found there counts as the zero-width reveal's does; a secret or personal
 * datum counts where the raw scan read none of its category over the same characters,
 * so redaction, which acts on the raw text, replaces the escaped form whole. Findings
 * are named at their raw places. Returns the score it adds.
 */
export function revealJsonEscapes(text: string, opts: ScanOptions, score: number, findings: Finding[], rescan: Rescan): number {
  const decoded = decodeJsonEscapes(text);
  if (decoded === null) return 0;
  const judged = opts.injection && score < INJECTION_THRESHOLD;
  const again = rescan(decoded, { injection: judged, depth: 1, model: opts.model, phoneRegion: opts.phoneRegion });
  const injection = judged && again.injectionScore >= INJECTION_THRESHOLD;
  const raw = findings.slice();
  let at: number[] | undefined;
  for (const f of again.findings) {
    if (f.category === "injection" && !injection) continue;
    at ??= rawOffsets(text);
    const start = at[f.start] as number;
    const end = at[f.end] as number;
    // A phrase the raw scan already named is named once; a value it already read (perhaps with an escape's letter) is not read twice.
    const same = (x: Finding) =>
      x.category === f.category &&
      x.start < end &&
      x.end > start &&
      (f.category !== "injection" || (x.kind === f.kind && x.start === start && x.end === end));
    if (!raw.some(same)) findings.push({ ...f, start, end });
  }
  return injection ? again.injectionScore : 0;
}
