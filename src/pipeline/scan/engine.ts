/**
 * The scanning engine: every detector compiled into two regular expressions, so each
 * text is read in two linear passes. Credential and data formats are case-sensitive
 * and run on the text itself; phrasing that ignores case (injection, `PASSWORD=`)
 * is written in lower case and runs on the lower-cased text, which keeps both passes
 * free of case folding (the regex engine runs case-insensitive alternations at half
 * the speed). Validators confirm checksums and entropy; injection matches add up to a
 * score with a threshold. Base64 runs that decode to text are scanned again for
 * hidden instructions.
 */
import type { Category, Detector } from "./detector.ts";
import { INJECTION_DETECTORS } from "./injection-detectors.ts";
import { PII_DETECTORS } from "./pii-detectors.ts";
import { SECRET_DETECTORS } from "./secret-detectors.ts";

export interface Finding {
  category: Category;
  kind: string;
  start: number;
  end: number;
}

export interface TextScan {
  findings: Finding[];
  /** Sum of injection weights after discounts; at or above INJECTION_THRESHOLD it blocks. */
  injectionScore: number;
}

export const INJECTION_THRESHOLD = 1.0;
/** A quoted example inside a discussion of injection counts for this much of its weight. */
const QUOTED_DISCOUNT = 0.4;
const DISCUSSION_DISCOUNT = 0.5;
const DISCUSSION =
  "\\b(?:prompt injection|injection attacks?|jailbreak attempts?|red[- ]team|detect(?:ing|ion)?|classif(?:y|ier)|example of|examples of|security (?:training|research|awareness)|phrases? (?:like|such as)|attackers? (?:use|write|try))\\b";
const DISCUSSION_FOLDED = new RegExp(DISCUSSION);
const DISCUSSION_ANY_CASE = new RegExp(DISCUSSION, "i");
/** Long enough to hold an instruction; decoded only when the start looks like text. Encoded text starts with a letter. */
const BASE64_RUN: Detector = { kind: "encoded_instruction", category: "injection", weight: 1.0, pattern: "\\b(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{24,}={0,2}" };
const MAX_DECODE = 64 * 1024;

const ALL: Detector[] = [...SECRET_DETECTORS, ...PII_DETECTORS, ...INJECTION_DETECTORS, BASE64_RUN];
const folds = (d: Detector) => d.category === "injection" || d.ignoreCase === true;

/** A pattern's lower-case form: letters lowered, escapes (`\b`, `\d`, `\uDB40`) kept. */
const lowered = (source: string) => source.replace(/(\\.)|([A-Z])/g, (_m, escape: string | undefined, upper: string | undefined) => escape ?? (upper as string).toLowerCase());

interface Pass {
  regex: RegExp;
  /** In capturing-group order: the group that matched names the detector. */
  detectors: Detector[];
}

/**
 * Most detectors start at a word boundary: they sit behind one shared `\b`, so they are
 * tried only where a word starts, not at every character. The rest follow.
 */
function compile(detectors: Detector[], source: (d: Detector) => string, flags: string): Pass {
  const atWord = detectors.filter((d) => d.pattern.startsWith("\\b"));
  const anywhere = detectors.filter((d) => !d.pattern.startsWith("\\b"));
  const alternatives = [`\\b(?:${atWord.map((d) => `(${source(d).slice(2)})`).join("|")})`, ...anywhere.map((d) => `(${source(d)})`)];
  return { regex: new RegExp(alternatives.join("|"), flags), detectors: [...atWord, ...anywhere] };
}

export const EXACT = compile(
  ALL.filter((d) => !folds(d)),
  (d) => d.pattern,
  "g",
);
export const FOLDED = compile(ALL.filter(folds), (d) => lowered(d.pattern), "g");
/** For the rare text whose lower-cased form has another length (offsets would shift): case-insensitive matching instead. */
const FOLDED_ANY_CASE = compile(ALL.filter(folds), (d) => d.pattern, "gi");

function decodedText(run: string): string | null {
  if (run.length > MAX_DECODE * 1.4) return null;
  const head = Buffer.from(run.slice(0, 64), "base64").toString("latin1");
  let printable = 0;
  for (let i = 0; i < head.length; i++) {
    const c = head.charCodeAt(i);
    if ((c >= 32 && c < 127) || c === 10 || c === 13 || c === 9) printable++;
  }
  if (printable < head.length * 0.95) return null;
  return Buffer.from(run, "base64").toString("utf8");
}

function quoted(text: string, start: number, end: number): boolean {
  const before = text.slice(Math.max(0, start - 3), start);
  const after = text.slice(end, end + 3);
  return /["'“‘«`]/.test(before) || /["'”’»`]/.test(after);
}

export interface ScanOptions {
  /** Injection is judged in caller-controlled text only (not in the owner's system prompt). */
  injection: boolean;
  /** Nesting depth for decoded content. */
  depth?: number;
}

interface ScanState {
  text: string;
  opts: ScanOptions;
  findings: Finding[];
  score: number;
  /** Whether the text discusses injection; worked out on the first injection match only. */
  discussion: boolean | undefined;
}

/** One pass of one compiled expression over `subject` (the text, or its lower-cased copy with the same offsets). */
function runPass(pass: Pass, subject: string, s: ScanState): void {
  const { regex, detectors } = pass;
  const { text, opts } = s;
  regex.lastIndex = 0;
  for (let m = regex.exec(subject); m !== null; m = regex.exec(subject)) {
    if (m[0] === "") {
      regex.lastIndex++;
      continue;
    }
    let i = 1;
    while (m[i] === undefined) i++;
    const detector = detectors[i - 1] as Detector;
    const start = m.index;
    const end = start + m[0].length;
    // Validators and decoding read the original text: case matters to entropy and base64.
    const value = subject === text ? m[0] : text.slice(start, end);
    if (detector.category === "injection") {
      if (!opts.injection) continue;
      let weight = detector.weight ?? 1;
      if (detector === BASE64_RUN) {
        const decoded = (opts.depth ?? 0) < 1 ? decodedText(value) : null;
        if (decoded === null) continue;
        // The nested scan shares the compiled expressions: keep this pass's place.
        const resume = regex.lastIndex;
        const hidden = scanText(decoded, { injection: true, depth: (opts.depth ?? 0) + 1 }).injectionScore;
        regex.lastIndex = resume;
        if (hidden < INJECTION_THRESHOLD) continue;
      } else {
        s.discussion ??= subject === text ? DISCUSSION_ANY_CASE.test(text) : DISCUSSION_FOLDED.test(subject);
        if (s.discussion) weight *= quoted(text, start, end) ? QUOTED_DISCOUNT * DISCUSSION_DISCOUNT : DISCUSSION_DISCOUNT;
      }
      s.score += weight;
      s.findings.push({ category: "injection", kind: detector.kind, start, end });
      continue;
    }
    if (detector.validate && !detector.validate(value, text, start)) {
      // Skipped whole (resuming inside every rejected candidate would make the scan
      // quadratic), except an assignment's value, which may begin another assignment.
      const sep = detector.valueAfter?.exec(value);
      if (sep) regex.lastIndex = start + sep.index + sep[0].length;
      continue;
    }
    s.findings.push({ category: detector.category, kind: detector.kind, start, end });
  }
}

/** A generic assignment (`API_KEY=...`) whose value the exact pass already named as a known credential is that credential. */
function withoutCoveredAssignments(findings: Finding[]): Finding[] {
  const generic = findings.filter((f) => f.kind === "password_assignment");
  if (generic.length === 0) return findings;
  const specific = findings.filter((f) => f.category === "secret" && f.kind !== "password_assignment");
  return findings.filter((f) => f.kind !== "password_assignment" || !specific.some((x) => x.start < f.end && x.end > f.start));
}

export function scanText(text: string, opts: ScanOptions): TextScan {
  const s: ScanState = { text, opts, findings: [], score: 0, discussion: undefined };
  runPass(EXACT, text, s);
  const lower = text.toLowerCase();
  if (lower.length === text.length) runPass(FOLDED, lower, s);
  else runPass(FOLDED_ANY_CASE, text, s);
  return { findings: withoutCoveredAssignments(s.findings), injectionScore: s.score };
}
