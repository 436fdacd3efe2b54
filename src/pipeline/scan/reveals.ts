/**
 * The scanner's second readings of a text that hides what it says: without its
 * invisible characters, with its JSON string escapes decoded, and normalized as a
 * model reads a rewritten text (normalized-text.ts). Each scans the revealed text
 * again (`rescan`, the engine's scanText) and adds what it finds to the first
 * reading's findings.
 */
import { ZERO_WIDTH } from "./detector.ts";
import { decodeJsonEscapes, rawOffsets } from "./json-escapes.ts";
import { normalizeText } from "./normalized-text.ts";
import { ACCENTS, foldedCues } from "./rewritten-words.ts";
import { type Finding, INJECTION_THRESHOLD, type ScanOptions, type TextScan } from "./scan-types.ts";
import type { Starts } from "./trigger-found.ts";

export type Rescan = (text: string, opts: ScanOptions) => TextScan;

/**
 * A second reading's findings named at their raw places (`at`: each revealed character's, and
 * the end's): a secret or personal datum where the raw scan read none of its category over
 * the same characters, so redaction, which acts on the raw text, replaces the hidden form
 * whole; its injection phrases when `injection` (the reading blocks), each once.
 */
function addFound(again: TextScan, offsets: () => ArrayLike<number>, injection: boolean, findings: Finding[]): void {
  const raw = findings.slice();
  let at: ArrayLike<number> | undefined;
  for (const f of again.findings) {
    if (f.category === "injection" && !injection) continue;
    at ??= offsets();
    const start = at[f.start] as number;
    const end = at[f.end] as number;
    // A phrase the raw scan already named is named once; a value it already read (perhaps in part) is not read twice.
    const same = (x: Finding) =>
      x.category === f.category &&
      x.start < end &&
      x.end > start &&
      (f.category !== "injection" || (x.kind === f.kind && x.start === start && x.end === end));
    if (!raw.some(same)) findings.push({ ...f, start, end });
  }
}

/** Where each character of the text without its invisible characters, and its end, stood. */
function visibleOffsets(text: string): number[] {
  const at: number[] = [];
  let last = 0;
  for (const m of text.matchAll(ZERO_WIDTH)) {
    for (let i = last; i < m.index; i++) at.push(i);
    last = m.index + m[0].length;
  }
  for (let i = last; i <= text.length; i++) at.push(i);
  return at;
}

/**
 * Invisible characters can split the words injection detectors look for
 * ("ig\u200Bnore", "ignore\u200Ball") and a credential a program would reject but a
 * reader (or a model told to use it) would not: the text is read again without them,
 * and, judged for injection, once more with them standing for spaces. A credential or
 * personal datum found without them counts; so does an injection either reading
 * finds (named `invisible_unicode`). Returns the score it adds.
 */
export function revealZeroWidth(text: string, opts: ScanOptions, score: number, findings: Finding[], rescan: Rescan): number {
  const judged = opts.injection && score < INJECTION_THRESHOLD;
  const again = rescan(text.replace(ZERO_WIDTH, ""), { injection: judged, depth: 1, phoneRegion: opts.phoneRegion });
  addFound(again, () => visibleOffsets(text), false, findings);
  if (!judged) return 0;
  const hidden = Math.max(again.injectionScore, rescan(text.replace(ZERO_WIDTH, " "), { injection: true, depth: 1 }).injectionScore);
  if (hidden < INJECTION_THRESHOLD) return 0;
  findings.push({ category: "injection", kind: "invisible_unicode", start: 0, end: text.length });
  return hidden;
}

/**
 * A revealed text (`decoded`, each character's raw place in `at`) scanned again: its
 * injection counts when it reaches the threshold (its phrases named at their raw places),
 * its secrets and personal data as addFound says. Returns the score it adds.
 */
function revealDecoded(
  decoded: string,
  at: () => ArrayLike<number>,
  opts: ScanOptions,
  score: number,
  findings: Finding[],
  rescan: Rescan,
): number {
  const judged = opts.injection && score < INJECTION_THRESHOLD;
  const again = rescan(decoded, { injection: judged, depth: 1, model: opts.model, phoneRegion: opts.phoneRegion });
  const injection = judged && again.injectionScore >= INJECTION_THRESHOLD;
  addFound(again, at, injection, findings);
  return injection ? again.injectionScore : 0;
}

/** A JSON text (a tool result, mostly) read as the text its string escapes encode. Returns the score it adds. */
export function revealJsonEscapes(text: string, opts: ScanOptions, score: number, findings: Finding[], rescan: Rescan): number {
  const decoded = decodeJsonEscapes(text);
  return decoded === null ? 0 : revealDecoded(decoded, () => rawOffsets(text), opts, score, findings, rescan);
}

/**
 * Whether a text's phrases of letters that fold to ASCII (the walk's `foldedWords`: `ＡＰＩ` read
 * as `API`, a line each) hold what the scanner acts on: two distinct cue words of the classifier,
 * or anything the rules find in them (a trigger phrase, a chat template token, a credential,
 * personal data), reading the phrases not known quiet as a text of their own. Japanese writes
 * product names and acronyms so; an attack or a credential rewritten so is a sentence or a key.
 */
export function foldedPhrasesAct(phrases: string, rescan: Rescan): boolean {
  if (foldedCues(phrases) >= 2) return true;
  const lines = phrases.split("\n");
  const unknown = lines.filter((line) => line !== "" && !QUIET.has(line));
  if (unknown.length === 0) return false;
  const s = rescan(`${unknown.join("\n")}\n`, { injection: true, model: null });
  if (s.findings.length > 0 || s.injectionScore > 0) return true;
  for (const line of unknown)
    if (line.length <= QUIET_LENGTH) {
      if (QUIET.size >= QUIET_KEPT) QUIET.clear();
      QUIET.add(line);
    }
  return false;
}

/**
 * Phrases the rules found nothing in lately (`API`, `URL`, `Excel`): a language's texts repeat
 * their acronyms and names, and the rules' answer on a phrase is its own, so each is read once,
 * not in every text (the scan a phrase pays is mostly its first touch of each expression after a
 * pause). At most QUIET_KEPT phrases of at most QUIET_LENGTH characters (keys and sentences do not
 * recur), the set dropped when full.
 */
const QUIET = new Set<string>();
const QUIET_KEPT = 4096;
const QUIET_LENGTH = 32;

/**
 * A text with telling signs of a rewriting (rewritten-chars.ts), or folded phrases that act,
 * read normalized (normalized-text.ts; accents dropped when two accented words tell it).
 * Returns the score it adds.
 */
export function revealNormalized(
  text: string,
  starts: Starts,
  opts: ScanOptions,
  score: number,
  findings: Finding[],
  rescan: Rescan,
): number {
  if (starts.telling === 0 && !(starts.foldedWords && foldedPhrasesAct(starts.foldedWords, rescan))) return 0;
  const normalized = normalizeText(text, (starts.telling & ACCENTS) !== 0);
  return normalized === null ? 0 : revealDecoded(normalized.text, () => normalized.at, opts, score, findings, rescan);
}
