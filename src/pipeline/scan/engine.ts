/**
 * The scanning engine: the detectors in three passes, one case-sensitive (credential and
 * data formats), one ignoring case (phrasing, `PASSWORD=`), and a third, ignoring case,
 * for the injection rules tried apart (Detector.apart). One pass over the
 * characters (triggers.ts) finds where any detector can start and which ones, and only
 * those detectors' sticky expressions are tried there, in the pass's order, as a
 * global search with the pass's detectors as one alternation would meet those places.
 * Validators confirm checksums and entropy; injection matches add up to a score with a
 * threshold. Encoded runs that decode to text, text split by invisible characters,
 * JSON-escaped text and text with signs of a rewriting (full-width letters, look-alikes,
 * HTML references, ...: reveals.ts) are scanned again for what they hide.
 */
import { classifierConfidence, INJECTION_MODEL, type InjectionConfidence } from "./classifier.ts";
import type { Detector, GatedSecretRule } from "./detector.ts";
import { anyReachable, type NeedsTest, needsTest } from "./detector-needs.ts";
import { discusses, reported } from "./discussion.ts";
import { INJECTION_DETECTORS } from "./injection-detectors.ts";
import { PII_DETECTORS } from "./pii-detectors.ts";
import { revealJsonEscapes, revealNormalized, revealZeroWidth } from "./reveals.ts";
import { type Finding, INJECTION_THRESHOLD, type ScanOptions, type TextScan } from "./scan-types.ts";
import { GATED_SECRET_RULES, GENERIC_SECRET_DETECTORS, SECRET_DETECTORS, withoutCoveredGenerics } from "./secret-detectors.ts";
import { planTriggers } from "./trigger-plan.ts";
import type { Feed, TriggerPlan } from "./trigger-plan-types.ts";
import { gateByPunctuation } from "./trigger-starts.ts";
import type { Starts } from "./trigger-found.ts";
import { findStarts } from "./triggers.ts";
import { type CountedPhrase, overlappingWeight, type SortedPhrases, sortPhrases } from "./phrase-overlap.ts";
import { escapeLiteral } from "./regex-literals.ts";

export type { InjectionConfidence } from "./classifier.ts";
export { type Finding, INJECTION_THRESHOLD, type ScanOptions, type TextScan } from "./scan-types.ts";
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
/** A phrase the sentence reports of a model in the third person counts this much: four of them flag, none blocks alone. */
const REPORTED_DISCOUNT = 0.15;
/** Every detector; those that fold case (phrasing, `PASSWORD=`) run in the second pass. */
export const ALL_DETECTORS: Detector[] = [...SECRET_DETECTORS, ...PII_DETECTORS, ...INJECTION_DETECTORS, ...GENERIC_SECRET_DETECTORS];
export const foldsCase = (d: Detector) => d.category === "injection" || d.ignoreCase === true;

interface Pass {
  /** Sticky: tried at one position at a time. Every detector as one alternation: for starts that do not say which detectors they feed. */
  regex: RegExp;
  /** In capturing-group order: the group that matched names the detector. */
  detectors: Detector[];
  /**
   * Each detector's own sticky expression, in the same order: at a start, the detectors
   * it feeds are tried one by one, the first to match winning, which is what the
   * alternation does. Ordinary prose meets a few starts a text, each opening one or
   * two detectors: running one small expression there, not the alternation of every
   * pattern, is most of the passes' saving, and far less code to bring back into the
   * caches after a pause.
   */
  own: RegExp[];
  /** Each detector's `needs` as a test, in the same order (null: none): a start that fails them runs no expression. */
  needs: NeedsTest[];
  /** By feed id: the expression that feed's list runs in this pass (feedExpression), once built. */
  byFeed: (RegExp | undefined)[];
  /** Which list of a start's feed names this pass's detectors (trigger-plan.ts). */
  feedList: "exact" | "folded" | "apart";
  flags: string;
  /** The rules tried apart (Detector.apart): a phrase another pass already counted counts only for what it adds. */
  apart?: boolean;
}

/** `\b` detectors sit behind one shared `\b`, tried first, as a global search would. */
function compile(detectors: Detector[], flags: string, feedList: Pass["feedList"]): Pass {
  const atWord = detectors.filter((d) => d.pattern.startsWith("\\b"));
  const anywhere = detectors.filter((d) => !d.pattern.startsWith("\\b"));
  const alternatives = [`\\b(?:${atWord.map((d) => `(${d.pattern.slice(2)})`).join("|")})`, ...anywhere.map((d) => `(${d.pattern})`)];
  const ordered = [...atWord, ...anywhere];
  return {
    regex: new RegExp(alternatives.join("|"), flags),
    detectors: ordered,
    own: ordered.map((d) => new RegExp(d.pattern, flags)),
    needs: ordered.map(needsTest),
    byFeed: [],
    feedList,
    flags,
  };
}

const EXACT_DETECTORS = ALL_DETECTORS.filter((d) => !foldsCase(d));
const FOLDED_DETECTORS = ALL_DETECTORS.filter((d) => foldsCase(d) && !d.apart);
const APART_DETECTORS = ALL_DETECTORS.filter((d) => foldsCase(d) && d.apart);
const EXACT = compile(EXACT_DETECTORS, "y", "exact");
/** Phrasing and names that ignore case; case folding is cheap at the few places the expression is tried. */
const FOLDED = compile(FOLDED_DETECTORS, "iy", "folded");
/** Injection rules that rarely start in everyday text, in an expression of their own (Detector.apart). */
const APART: Pass = { ...compile(APART_DETECTORS, "iy", "apart"), apart: true };
/** In the passes' order: a start's feed names detectors by their place in `Pass.detectors`. */
const TRIGGERS = planTriggers(
  EXACT.detectors,
  FOLDED.detectors,
  GATED_SECRET_RULES.map((r) => r.keywords),
  APART.detectors,
);

/** What opens a gate, as one expression per rule: for scans given their starts without the gates (the tests' exhaustive scan). */
const GATE_KEYWORDS = GATED_SECRET_RULES.map(
  (r) => new RegExp(r.keywords.map((k) => (gateByPunctuation(k) < 0 ? "\\b" : "") + escapeLiteral(k)).join("|"), "i"),
);

/** The gated rules (secret-detectors.ts) whose keywords the text holds, searched through it whole. */
function runGates(gates: readonly number[], s: ScanState): void {
  if (gates.length === 0) return;
  // In the rules' order, not the order the text met their keywords: the same findings in the same order either way.
  const order = gates.length === 1 ? gates : [...new Set(gates)].sort((a, b) => a - b);
  for (const g of order) {
    const rule = GATED_SECRET_RULES[g];
    if (rule) searchWhole(rule, s);
  }
}

/**
 * Every match of a gated rule's global expression, as `matchAll` would give them
 * (an empty match steps one character on), without its iterator: the rule's own
 * expression is searched from 0 and left at 0, where the search ends.
 */
function searchWhole(rule: GatedSecretRule, s: ScanState): void {
  const { regex } = rule;
  const { text } = s;
  regex.lastIndex = 0;
  for (let m = regex.exec(text); m !== null; m = regex.exec(text)) {
    const value = m[0];
    if (value === "") {
      const at = regex.lastIndex;
      regex.lastIndex = regex.unicode && at < text.length ? at + String.fromCodePoint(text.codePointAt(at) as number).length : at + 1;
    } else if (rule.validate(value)) s.findings.push({ category: "secret", kind: rule.kind, start: m.index, end: m.index + value.length });
  }
}

function quoted(text: string, start: number, end: number): boolean {
  const before = text.slice(Math.max(0, start - 3), start);
  const after = text.slice(end, end + 3);
  return /["'“‘«`]/.test(before) || /["'”’»`]/.test(after);
}

interface ScanState {
  text: string;
  opts: ScanOptions;
  findings: Finding[];
  score: number;
  /** Whether the text discusses injection; worked out on the first injection match only. */
  discussion: boolean | undefined;
  /** The injection matches counted so far, with the weight each added. */
  counted: CountedPhrase[];
  /** The shared passes' matches, sorted for the rules tried apart (set before their pass). */
  shared: SortedPhrases | undefined;
}

/** The pass's whole alternation at `p`: the match and the detector whose group matched, or null. */
function matchAny(pass: Pass, text: string, p: number): { value: string; detector: Detector } | null {
  pass.regex.lastIndex = p;
  const m = pass.regex.exec(text);
  if (m === null) return null;
  let i = 1;
  while (m[i] === undefined && i < m.length) i++;
  return { value: m[0], detector: pass.detectors[i - 1] as Detector };
}

/**
 * What a feed runs in a pass, built on first use and kept by feed (Pass.byFeed): one
 * detector's own expression, or a list of two or more as one sticky alternation in the
 * list's order: its first alternative to match wins, as trying each in turn does, and
 * the group that matched names the detector (patterns capture nothing, see matchAny).
 * A number in prose opens seven detectors (phone, SSN, card, four tokens); one
 * expression run there instead of seven saves each run's own entry and exit.
 */
function feedExpression(pass: Pass, feed: number, list: readonly number[]): RegExp {
  const regex =
    list.length === 1
      ? (pass.own[list[0] as number] as RegExp)
      : new RegExp(list.map((d) => `(${(pass.detectors[d] as Detector).pattern})`).join("|"), pass.flags);
  pass.byFeed[feed] = regex;
  return regex;
}

/** Marks of detectors already tried at one position, when several feeds meet there (reused). */
let triedAt = new Uint8Array(0);

/**
 * The detectors that the feeds of `feeds[from, to)` (all at one position) name, tried
 * in the pass's order; the first to match decides, as in the alternation.
 */
function matchFed(
  pass: Pass,
  plan: TriggerPlan,
  text: string,
  p: number,
  feeds: readonly number[],
  from: number,
  to: number,
): { value: string; detector: Detector } | null {
  if (to - from === 1) {
    // A feed's own list: its expression, kept by feed (a union is built per call, and compiling it each time would cost far more).
    const feed = feeds[from] as number;
    const list = (plan.feeds[feed] as Feed)[pass.feedList];
    if (list.length === 0 || !anyReachable(pass.needs, list, text, p)) return null;
    const regex = pass.byFeed[feed] ?? feedExpression(pass, feed, list);
    regex.lastIndex = p;
    const m = regex.exec(text);
    if (m === null) return null;
    let g = 1;
    if (list.length > 1) while (m[g] === undefined && g < m.length) g++;
    return { value: m[0], detector: pass.detectors[list[g - 1] as number] as Detector };
  }
  // Several starts at one place (rare): the union of their detectors, in order.
  if (triedAt.length < pass.detectors.length) triedAt = new Uint8Array(pass.detectors.length);
  for (let k = from; k < to; k++) for (const d of (plan.feeds[feeds[k] as number] as Feed)[pass.feedList]) triedAt[d] = 1;
  const list: number[] = [];
  for (let d = 0; d < pass.detectors.length; d++)
    if (triedAt[d]) {
      list.push(d);
      triedAt[d] = 0;
    }
  for (const d of list) {
    if (pass.needs[d]?.(text, p) === false) continue;
    const regex = pass.own[d] as RegExp;
    regex.lastIndex = p;
    const m = regex.exec(text);
    if (m !== null) return { value: m[0], detector: pass.detectors[d] as Detector };
  }
  return null;
}

/**
 * One pass: at each candidate position in order, the way a global search would meet
 * them, the pass's detectors that can start there. A match (accepted or not) is
 * skipped whole.
 */
function runPass(pass: Pass, positions: readonly number[], feeds: readonly number[] | undefined, s: ScanState): void {
  const { text, opts } = s;
  let resume = 0;
  for (let k = 0; k < positions.length; ) {
    const p = positions[k] as number;
    // The run of starts at this same position.
    let next = k + 1;
    while (next < positions.length && positions[next] === p) next++;
    const from = k;
    k = next;
    if (p < resume) continue;
    const found = feeds ? matchFed(pass, TRIGGERS, text, p, feeds, from, next) : matchAny(pass, text, p);
    if (found === null || found.value === "") continue;
    const { detector, value } = found;
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
        s.discussion ??= discusses(text);
        if (s.discussion) weight *= quoted(text, start, end) ? QUOTED_DISCOUNT * DISCUSSION_DISCOUNT : DISCUSSION_DISCOUNT;
        if (reported(text, start)) weight *= REPORTED_DISCOUNT;
      }
      if (pass.apart) {
        // Where the shared rules already counted this phrase, the stronger reading wins, not the sum.
        s.shared ??= sortPhrases(s.counted);
        const already = overlappingWeight(s.shared, start, end);
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

/**
 * Scans one text with its patterns tried at the given starts. Requests go through
 * scanText; tests pass every position here to check the triggers miss nothing.
 */
export function scanAt(text: string, opts: ScanOptions, starts: Starts): TextScan {
  const s: ScanState = { text, opts, findings: [], score: 0, discussion: undefined, counted: [], shared: undefined };
  runPass(EXACT, starts.exact, starts.exactFeeds, s);
  runPass(FOLDED, starts.folded, starts.foldedFeeds, s);
  if (starts.apart) runPass(APART, starts.apart, starts.apartFeeds, s);
  else runPass(APART, starts.folded, undefined, s);
  runGates(starts.gates ?? GATE_KEYWORDS.flatMap((re, g) => (re.test(text) ? [g] : [])), s);
  if (starts.zeroWidth && !opts.depth) s.score += revealZeroWidth(text, opts, s.score, s.findings, scanText);
  if (!opts.depth) s.score += revealJsonEscapes(text, opts, s.score, s.findings, scanText);
  if ((starts.telling !== 0 || starts.foldedWords) && !opts.depth)
    s.score += revealNormalized(text, starts, opts, s.score, s.findings, scanText);
  // The rules first: they are precise, and most texts they flag need no second opinion.
  let classifier: InjectionConfidence = null;
  if (opts.injection && s.score < INJECTION_THRESHOLD) {
    const model = opts.model === undefined ? INJECTION_MODEL : opts.model;
    classifier = model ? classifierConfidence(model, text) : null;
    // A text about injection quotes attacks to discuss them: the classifier's word counts a level less.
    if (classifier !== null && (s.discussion ?? discusses(text))) classifier = classifier === "high" ? "medium" : null;
    // The ensemble: the classifier sure alone, or unsure and the rules part of the way.
    if (classifier === "high" || (classifier === "medium" && s.score >= RULES_CORROBORATE)) {
      s.score += INJECTION_THRESHOLD;
      s.findings.push({ category: "injection", kind: "classifier", start: 0, end: text.length });
    }
  }
  const injectionConfidence: InjectionConfidence =
    s.score >= INJECTION_THRESHOLD ? "high" : classifier === "medium" || s.score >= RULES_PARTIAL ? "medium" : null;
  return { findings: withoutCoveredGenerics(s.findings), injectionScore: s.score, injectionConfidence };
}

/** Scans one text: the patterns are tried only where a detector can start (triggers.ts). */
export function scanText(text: string, opts: ScanOptions): TextScan {
  return scanAt(text, opts, findStarts(text, TRIGGERS));
}
