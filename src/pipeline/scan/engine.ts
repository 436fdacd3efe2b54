/**
 * The scanning engine: every detector compiled into sticky regular expressions,
 * one case-sensitive (credential and data formats), one ignoring case (phrasing,
 * `PASSWORD=`), and a third, ignoring case, for the injection rules tried apart
 * (Detector.apart). One pass over the characters (triggers.ts) finds where any detector
 * can start, and the expressions are tried there only, in order, as a global search
 * would meet those places. Validators confirm checksums and entropy; injection
 * matches add up to a score with a threshold. Encoded runs that decode to text, and
 * text split by zero-width characters, are scanned again for hidden instructions.
 */
import { classifierConfidence, INJECTION_MODEL, type InjectionConfidence, type LinearModel } from "./classifier.ts";
import { type Category, type Detector, ZERO_WIDTH } from "./detector.ts";
import { INJECTION_DETECTORS } from "./injection-detectors.ts";
import { PII_DETECTORS } from "./pii-detectors.ts";
import { GATED_SECRET_RULES, SECRET_DETECTORS } from "./secret-detectors.ts";
import { gateByPunctuation, planTriggers } from "./trigger-plan.ts";
import { findStarts, type Starts } from "./triggers.ts";

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
  /**
   * How sure the scanner is that the text is an injection: "high" (the score reached
   * INJECTION_THRESHOLD: blocked), "medium" (the classifier's flag threshold, or the
   * rules part of the way: forwarded and flagged, never blocked by default), null (neither).
   */
  injectionConfidence: InjectionConfidence;
}

export type { InjectionConfidence } from "./classifier.ts";

export const INJECTION_THRESHOLD = 1.0;
/** Rule evidence that flags alone without blocking (a weaker pattern, or a strong one discounted in a discussion). */
const RULES_PARTIAL = 0.5;
/**
 * Rule evidence that, with the classifier's medium confidence, blocks: any weak
 * pattern ("without any restrictions", a bare `## System` heading). Public benign rows
 * carry none, so the pair adds recall without adding blocked ordinary prompts.
 */
const RULES_CORROBORATE = 0.3;
/** A quoted example inside a discussion of injection counts for this much of its weight. */
const QUOTED_DISCOUNT = 0.4;
const DISCUSSION_DISCOUNT = 0.5;
/** Words of a text about injection or about chat templates, rather than one attempting it. */
const DISCUSSION =
  /\b(?:prompt injection|injection attacks?|jailbreak attempts?|red[- ]team|detect(?:ing|ion)?|classif(?:y|ier)|example of|examples of|security (?:training|research|awareness)|phrases? (?:like|such as)|attackers? (?:use|write|try)|special tokens?|control tokens?|chat templates?|prompt (?:formats?|templates?)|(?:tokens?|tags?|markers?) (?:does|do|is|are|means?))\b|(?:the|this|that) (?:\[\/?inst\]|<\|im_start\|>|<\|im_end\|>|<<sys>>) (?:token|tag|marker)/i;
/** Every detector; those that fold case (phrasing, `PASSWORD=`) run in the second pass. */
export const ALL_DETECTORS: Detector[] = [...SECRET_DETECTORS, ...PII_DETECTORS, ...INJECTION_DETECTORS];
export const foldsCase = (d: Detector) => d.category === "injection" || d.ignoreCase === true;

interface Pass {
  /** Sticky: tried at one position at a time. */
  regex: RegExp;
  /** In capturing-group order: the group that matched names the detector. */
  detectors: Detector[];
  /** The rules tried apart (Detector.apart): a phrase another pass already counted counts only for what it adds. */
  apart?: boolean;
}

/** `\b` detectors sit behind one shared `\b`, tried first, as a global search would. */
function compile(detectors: Detector[], flags: string): Pass {
  const atWord = detectors.filter((d) => d.pattern.startsWith("\\b"));
  const anywhere = detectors.filter((d) => !d.pattern.startsWith("\\b"));
  const alternatives = [`\\b(?:${atWord.map((d) => `(${d.pattern.slice(2)})`).join("|")})`, ...anywhere.map((d) => `(${d.pattern})`)];
  return { regex: new RegExp(alternatives.join("|"), flags), detectors: [...atWord, ...anywhere] };
}

const EXACT_DETECTORS = ALL_DETECTORS.filter((d) => !foldsCase(d));
const FOLDED_DETECTORS = ALL_DETECTORS.filter((d) => foldsCase(d) && !d.apart);
const APART_DETECTORS = ALL_DETECTORS.filter((d) => foldsCase(d) && d.apart);
const EXACT = compile(EXACT_DETECTORS, "y");
/** Phrasing and names that ignore case; case folding is cheap at the few places the expression is tried. */
const FOLDED = compile(FOLDED_DETECTORS, "iy");
const APART: Pass = { ...compile(APART_DETECTORS, "iy"), apart: true };
const TRIGGERS = planTriggers(
  EXACT_DETECTORS,
  FOLDED_DETECTORS,
  GATED_SECRET_RULES.map((r) => r.keywords),
  APART_DETECTORS,
);

/** What opens a gate, as one expression per rule: for scans given their starts without the gates (the tests' exhaustive scan). */
const GATE_KEYWORDS = GATED_SECRET_RULES.map(
  (r) =>
    new RegExp(r.keywords.map((k) => (gateByPunctuation(k) < 0 ? "\\b" : "") + k.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"), "i"),
);

/** The gated rules (secret-detectors.ts) whose keywords the text holds, searched through it whole. */
function runGates(gates: readonly number[], s: ScanState): void {
  // In the rules' order, not the order the text met their keywords: the same findings in the same order either way.
  for (const g of [...new Set(gates)].sort((a, b) => a - b)) {
    const rule = GATED_SECRET_RULES[g];
    if (!rule) continue;
    for (const m of s.text.matchAll(rule.regex)) {
      if (m[0] !== "" && rule.validate(m[0]))
        s.findings.push({ category: "secret", kind: rule.kind, start: m.index, end: m.index + m[0].length });
    }
  }
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
  /** The trained classifier to judge injection with besides the rules; null for the rules alone (evaluation). */
  model?: LinearModel | null;
  /** Where phone numbers written without `+` are read as national ones (ISO 3166 alpha-2); `US` when not given. */
  phoneRegion?: string;
}

interface ScanState {
  text: string;
  opts: ScanOptions;
  findings: Finding[];
  score: number;
  /** Whether the text discusses injection; worked out on the first injection match only. */
  discussion: boolean | undefined;
  /** The injection matches counted so far, with the weight each added. */
  counted: { start: number; end: number; weight: number }[];
}

/**
 * One pass: the sticky expression tried at each candidate position in order, the way
 * a global search would meet them. A match (accepted or not) is skipped whole.
 */
function runPass(pass: Pass, positions: readonly number[], s: ScanState): void {
  const { regex, detectors } = pass;
  const { text, opts } = s;
  let resume = 0;
  let last = -1;
  for (const p of positions) {
    if (p < resume || p === last) continue;
    last = p;
    regex.lastIndex = p;
    const m = regex.exec(text);
    if (m === null || m[0] === "") continue;
    let i = 1;
    while (m[i] === undefined) i++;
    const detector = detectors[i - 1] as Detector;
    const value = m[0];
    const start = p;
    const end = p + value.length;
    resume = end;
    if (detector.category === "injection") {
      if (!opts.injection) continue;
      let weight = detector.weight ?? 1;
      if (detector.decode) {
        const decoded = (opts.depth ?? 0) < 1 ? detector.decode(value) : null;
        if (decoded === null) continue;
        if (scanText(decoded, { injection: true, depth: (opts.depth ?? 0) + 1 }).injectionScore < INJECTION_THRESHOLD) continue;
      } else {
        s.discussion ??= DISCUSSION.test(text);
        if (s.discussion) weight *= quoted(text, start, end) ? QUOTED_DISCOUNT * DISCUSSION_DISCOUNT : DISCUSSION_DISCOUNT;
      }
      if (pass.apart) {
        // Where the shared rules already counted this phrase, the stronger reading wins, not the sum.
        const already = s.counted.reduce((sum, c) => (c.start < end && c.end > start ? sum + c.weight : sum), 0);
        if (already >= weight) continue;
        weight -= already;
      }
      s.score += weight;
      s.counted.push({ start, end, weight });
      s.findings.push({ category: "injection", kind: detector.kind, start, end });
      continue;
    }
    if (detector.validate && !detector.validate(value, text, start, opts.phoneRegion ?? "US")) {
      // Skipped whole (resuming inside every rejected candidate would make the scan
      // quadratic), except an assignment's value, which may begin another assignment.
      const sep = detector.valueAfter?.exec(value);
      if (sep) resume = start + sep.index + sep[0].length;
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

/**
 * Scans one text with its patterns tried at the given starts. Requests go through
 * scanText; tests pass every position here to check the triggers miss nothing.
 */
export function scanAt(text: string, opts: ScanOptions, starts: Starts): TextScan {
  const s: ScanState = { text, opts, findings: [], score: 0, discussion: undefined, counted: [] };
  runPass(EXACT, starts.exact, s);
  runPass(FOLDED, starts.folded, s);
  runPass(APART, starts.apart ?? starts.folded, s);
  runGates(starts.gates ?? GATE_KEYWORDS.flatMap((re, g) => (re.test(text) ? [g] : [])), s);
  if (starts.zeroWidth && opts.injection && !opts.depth && s.score < INJECTION_THRESHOLD) revealZeroWidth(s);
  // The rules first: they are precise, and most texts they flag need no second opinion.
  let classifier: InjectionConfidence = null;
  if (opts.injection && s.score < INJECTION_THRESHOLD) {
    const model = opts.model === undefined ? INJECTION_MODEL : opts.model;
    classifier = model ? classifierConfidence(model, text) : null;
    // A text about injection quotes attacks to discuss them: the classifier's word counts a level less.
    if (classifier !== null && (s.discussion ?? DISCUSSION.test(text))) classifier = classifier === "high" ? "medium" : null;
    // The ensemble: the classifier sure alone, or unsure and the rules part of the way.
    if (classifier === "high" || (classifier === "medium" && s.score >= RULES_CORROBORATE)) {
      s.score += INJECTION_THRESHOLD;
      s.findings.push({ category: "injection", kind: "classifier", start: 0, end: text.length });
    }
  }
  const injectionConfidence: InjectionConfidence =
    s.score >= INJECTION_THRESHOLD ? "high" : classifier === "medium" || s.score >= RULES_PARTIAL ? "medium" : null;
  return { findings: withoutCoveredAssignments(s.findings), injectionScore: s.score, injectionConfidence };
}

/**
 * Zero-width characters can split the words injection detectors look for
 * ("ig\u200Bnore", "ignore\u200Ball"): the text is judged again without them, read
 * both ways (removed, and standing for spaces).
 */
function revealZeroWidth(s: ScanState): void {
  const again = (t: string) => scanText(t, { injection: true, depth: 1 }).injectionScore;
  const hidden = Math.max(again(s.text.replace(ZERO_WIDTH, "")), again(s.text.replace(ZERO_WIDTH, " ")));
  if (hidden < INJECTION_THRESHOLD) return;
  s.score += hidden;
  s.findings.push({ category: "injection", kind: "invisible_unicode", start: 0, end: s.text.length });
}

/** Scans one text: the patterns are tried only where a detector can start (triggers.ts). */
export function scanText(text: string, opts: ScanOptions): TextScan {
  return scanAt(text, opts, findStarts(text, TRIGGERS));
}
