/**
 * The scanning engine: every detector of every category compiled into one regular
 * expression, so each text is read in a single pass. Credential and data formats
 * match case-sensitively; injection phrasing and assignments ignore case through
 * inline `(?i:...)` groups. Validators confirm checksums and entropy; injection
 * matches add up to a score with a threshold.
 * Base64 runs that decode to text are scanned again for hidden instructions.
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
const DISCUSSION = /\b(?:prompt injection|injection attacks?|jailbreak attempts?|red[- ]team|detect(?:ing|ion)?|classif(?:y|ier)|example of|examples of|security (?:training|research|awareness)|phrases? (?:like|such as)|attackers? (?:use|write|try))\b/i;
/** Long enough to hold an instruction, and only decoded when the start looks like text. */
const BASE64_RUN: Detector = { kind: "encoded_instruction", category: "injection", weight: 1.0, pattern: "(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{24,}={0,2}" };
const MAX_DECODE = 64 * 1024;

const ALL: Detector[] = [...SECRET_DETECTORS, ...PII_DETECTORS, ...INJECTION_DETECTORS, BASE64_RUN];
/**
 * Most detectors start at a word boundary: they sit behind one shared `\b`, so they are
 * tried only where a word starts, not at every character. The rest follow.
 */
const AT_WORD = ALL.filter((d) => d.pattern.startsWith("\\b"));
const ANYWHERE = ALL.filter((d) => !d.pattern.startsWith("\\b"));
const DETECTORS = [...AT_WORD, ...ANYWHERE];
/** One capturing group per detector, in DETECTORS order: the group that matched names it. */
const group = (d: Detector, source: string) => (d.category === "injection" || d.ignoreCase ? `((?i:${source}))` : `(${source})`);
const COMBINED = new RegExp([`\\b(?:${AT_WORD.map((d) => group(d, d.pattern.slice(2))).join("|")})`, ...ANYWHERE.map((d) => group(d, d.pattern))].join("|"), "g");

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

export function scanText(text: string, opts: ScanOptions): TextScan {
  const findings: Finding[] = [];
  let score = 0;
  const discussion = opts.injection && DISCUSSION.test(text);
  COMBINED.lastIndex = 0;
  for (let m = COMBINED.exec(text); m !== null; m = COMBINED.exec(text)) {
    if (m[0] === "") {
      COMBINED.lastIndex++;
      continue;
    }
    let i = 1;
    while (m[i] === undefined) i++;
    const detector = DETECTORS[i - 1] as Detector;
    const value = m[0];
    const start = m.index;
    const end = start + value.length;
    if (detector.category === "injection") {
      if (!opts.injection) continue;
      let weight = detector.weight ?? 1;
      if (detector === BASE64_RUN) {
        const decoded = (opts.depth ?? 0) < 1 ? decodedText(value) : null;
        if (decoded === null) continue;
        // The nested scan shares the compiled expression: keep this scan's place in the text.
        const resume = COMBINED.lastIndex;
        const hidden = scanText(decoded, { injection: true, depth: (opts.depth ?? 0) + 1 }).injectionScore;
        COMBINED.lastIndex = resume;
        if (hidden < INJECTION_THRESHOLD) continue;
      } else if (discussion && quoted(text, start, end)) {
        weight *= QUOTED_DISCOUNT * DISCUSSION_DISCOUNT;
      } else if (discussion) {
        weight *= DISCUSSION_DISCOUNT;
      }
      score += weight;
      findings.push({ category: "injection", kind: detector.kind, start, end });
      continue;
    }
    let valueStart = end;
    if (detector.valueAfter && (opts.depth ?? 0) === 0) {
      // A generic assignment (api_key="...") whose value is a known credential reports the
      // credential itself; the value is at most a few hundred characters.
      const sep = detector.valueAfter.exec(value);
      valueStart = sep ? start + sep.index + sep[0].length : start;
      const resume = COMBINED.lastIndex;
      const inner = scanText(text.slice(valueStart, end), { injection: false, depth: (opts.depth ?? 0) + 1 }).findings.filter((f) => f.category === "secret");
      COMBINED.lastIndex = resume;
      if (inner.length) {
        for (const f of inner) findings.push({ ...f, start: valueStart + f.start, end: valueStart + f.end });
        continue;
      }
    }
    if (detector.validate && !detector.validate(value, text, start)) {
      // Skipped whole (resuming inside every rejected candidate would make the scan quadratic),
      // except an assignment's value, which may begin something else (KEY=-----BEGIN PRIVATE KEY-----).
      COMBINED.lastIndex = valueStart;
      continue;
    }
    findings.push({ category: detector.category, kind: detector.kind, start, end });
  }
  return { findings, injectionScore: score };
}
