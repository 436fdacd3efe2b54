/**
 * Where detectors can match: one pass over a text's characters finds every place a
 * detector's `start` allows, for the case-sensitive and the case-folding pass, as the
 * plan (trigger-plan.ts) lists them. The engine tries its patterns only there (sticky)
 * instead of at every character, so ordinary prose is read once, by this loop, and
 * hardly at all by the regex engine.
 */
import { isScriptLetter } from "./detector.ts";
import { hasBit, key3, key4, LOWER, lower, seenSlot, widePair } from "./trigger-chars.ts";
import { BASE64, type FeedId, type Literal, SPECIAL, type TriggerPlan, WORD } from "./trigger-plan-types.ts";
import { LITERAL_FIELDS, wordSlot } from "./trigger-words.ts";

/** Past the end: above Latin-1, so it is no letter, digit or literal character. */
const PAST_END = 0x10000;
/**
 * The character at `k`, or PAST_END. Nothing here reads past a string's end or a
 * table's: once a read has, the JIT compiles every read at that place for the
 * out-of-bounds case, which slows the whole walk.
 */
const charAt = (text: string, k: number) => (k < text.length ? text.charCodeAt(k) : PAST_END);
const isDigit = (c: number) => c >= 48 && c <= 57;
const isCapital = (c: number) => c >= 65 && c <= 90;
/** JavaScript's `\s`, for the blanks a line-start pattern may skip. */
const isBlank = (c: number) =>
  (c >= 9 && c <= 13) ||
  c === 32 ||
  c === 0xa0 ||
  c === 0x1680 ||
  (c >= 0x2000 && c <= 0x200a) ||
  c === 0x2028 ||
  c === 0x2029 ||
  c === 0x202f ||
  c === 0x205f ||
  c === 0x3000 ||
  c === 0xfeff;
/** The characters of ZERO_WIDTH (detector.ts), as the loop meets them. */
const isZeroWidth = (c: number) => (c >= 0x200b && c <= 0x200d) || c === 0x2060 || c === 0xfeff;
/** Unicode tag characters (as their high surrogate) and bidirectional controls. */
const isInvisible = (c: number) => c === 0xdb40 || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);

/**
 * Whether `lit` is at `i`. Its first `known` characters already matched ignoring case
 * (they made the key it was found under), so a case-folding literal is compared from
 * there: on unseen text the comparison is a good part of what a word that begins a
 * literal costs.
 */
function literalAt(text: string, i: number, lit: Literal, known = 0): boolean {
  const t = lit.text;
  if (i < 0 || i + t.length > text.length) return false;
  for (let k = lit.anyCase ? known : 0; k < t.length; k++) {
    const c = text.charCodeAt(i + k);
    if ((lit.anyCase ? lower(c) : c) !== t.charCodeAt(k)) return false;
  }
  return true;
}

/** Where each pass tries its patterns, ascending (duplicates possible). */
export interface Starts {
  exact: number[];
  folded: number[];
  /**
   * Beside each start, the feed (trigger-plan.ts) that put it there: only the detectors
   * it names can match there. When absent, every detector of the pass is tried.
   */
  exactFeeds?: number[];
  foldedFeeds?: number[];
  /** Where the case-folding rules tried apart start (Detector.apart), and their feeds; when absent, the scan tries them where `folded` says, every one. */
  apart?: number[];
  apartFeeds?: number[];
  /** The text holds zero-width characters (see ZERO_WIDTH). */
  zeroWidth: boolean;
  /** The gated rules whose keywords the text holds (duplicates possible); when absent, the scan works them out itself. */
  gates?: number[];
}

/** One text's scan: the candidates found so far, and the back-windows already covered. */
interface Found {
  text: string;
  plan: TriggerPlan;
  out: [number[], number[], number[]];
  /** Beside each start in `out`, its feed. */
  feeds: [number[], number[], number[]];
  gates: number[];
  zeroWidth: boolean;
  /** False once a position was pushed behind a later one (back-windows, base64 runs). */
  ordered: boolean;
  /** Back-windows already pushed up to here: overlapping windows (`@@@@`) push each position once. */
  atCovered: number;
  assignCovered: number;
}

function push(f: Found, p: number, feed: FeedId): void {
  const passes = f.plan.feedPasses[feed] as number;
  if (passes & 1) {
    f.out[0].push(p);
    f.feeds[0].push(feed);
  }
  if (passes & 2) {
    f.out[1].push(p);
    f.feeds[1].push(feed);
  }
  if (passes & 4) {
    f.out[2].push(p);
    f.feeds[2].push(feed);
  }
}

/** A literal found at `p`: a start for its detectors (`feed`), or the opening of its gate. */
function hit(f: Found, p: number, feed: FeedId, gate: number): void {
  if (gate >= 0) f.gates.push(gate);
  else push(f, p, feed);
}

function wordAt(f: Found, p: number): boolean {
  if (p < 0) return false;
  const c = f.text.charCodeAt(p);
  return c < 128 && ((f.plan.classes[c] as number) & WORD) !== 0;
}

/** A line whose first character after up to three blanks is one a line-start pattern opens with. */
function lineStart(f: Found, p: number, from: number): void {
  const { text, plan } = f;
  let k = from;
  while (k < text.length && k - from < 3 && isBlank(text.charCodeAt(k))) k++;
  if (k >= text.length) return;
  const c = lower(text.charCodeAt(k));
  const feed = c < 256 ? (plan.lineFirstLatin1[c] as number) : plan.lineFirst.get(c);
  if (feed) push(f, p, feed);
  const labelled = c < 128 ? (plan.lineLabelled[c] as number) : 0;
  if (labelled !== 0 && afterLabel(plan, text, k, c)) push(f, p, labelled);
}

/** Whether the run of letters, digits and hyphens at `k` (a label: at most 63) ends at a character that may follow it (labelAfter). */
function afterLabel(plan: TriggerPlan, text: string, k: number, c: number): boolean {
  let j = k;
  while (j < text.length && j - k < 64 && isLabelChar(text.charCodeAt(j))) j++;
  const after = j - k < 64 ? charAt(text, j) : PAST_END;
  return after < 128 && hasBit(plan.labelAfter, c * 128 + after) === 1;
}

const isLabelChar = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 45;

/**
 * The literals of one key (sorted as sortWordLiterals leaves them; `packed` as the word
 * table holds them, trigger-words.ts) that stand at `i`, whose first `known` characters
 * matched ignoring case. The case-folding ones are read as one pass down the list:
 * `matched` is how many characters the one before matched, and one sharing more than
 * that fails where it failed, one sharing less fails where they part; only one sharing
 * exactly that many is compared, from there. The same literals are hit as comparing each
 * whole, in list order.
 */
function wordLiterals(f: Found, i: number, packed: number, known: number): void {
  const { literals, chars } = f.plan.words;
  const text = f.text;
  const end = text.length - i;
  const first = packed >>> 8;
  let matched = -1;
  for (let l = first; l < first + (packed & 255); l++) {
    const at = l * LITERAL_FIELDS;
    const from = literals[at] as number;
    const info = literals[at + 1] as number;
    const length = info & 0xfff;
    if (info >>> 24 === 0) {
      // Case-sensitive: every character, the key's too.
      let k = 0;
      while (k < length && k < end && text.charCodeAt(i + k) === chars[from + k]) k++;
      if (k === length) hit(f, i, literals[at + 2] as number, literals[at + 3] as number);
      continue;
    }
    const shared = (info >>> 12) & 0xfff;
    let k = known;
    if (matched >= 0) {
      if (shared !== matched) {
        if (shared < matched) matched = shared;
        continue;
      }
      k = matched;
    }
    while (k < length && k < end && lower(text.charCodeAt(i + k)) === chars[from + k]) k++;
    matched = k;
    if (k === length) hit(f, i, literals[at + 2] as number, literals[at + 3] as number);
  }
}

/** A word begins at `i` with character `c` (a letter, digit or `_`). */
function wordStart(f: Found, i: number, c: number): void {
  const { text, plan } = f;
  if (c <= 57) {
    if (c >= 48 && plan.digitWord) push(f, i, plan.digitWord);
    return;
  }
  const c1 = charAt(text, i + 1);
  const c2 = charAt(text, i + 2);
  const c3 = charAt(text, i + 3);
  if (plan.capsDigitsWord && isCapital(c) && isCapital(c1) && isDigit(c2) && isDigit(c3)) push(f, i, plan.capsDigitsWord);
  // PAST_END fails these comparisons: no literal runs past the text.
  if (!(c1 <= 255) || !(c2 <= 255)) return;
  const k3 = key3(c, c1, c2);
  const s3 = hasBit(plan.keySeen, seenSlot(k3)) ? wordSlot(plan.words, k3) : -1;
  if (s3 >= 0) wordLiterals(f, i, plan.words.slots[s3 + 1] as number, 3);
  if (!(c3 <= 255)) return;
  const k4 = key4(k3, c3);
  const s4 = hasBit(plan.keySeen, seenSlot(k4)) ? wordSlot(plan.words, k4) : -1;
  if (s4 >= 0) wordLiterals(f, i, plan.words.slots[s4 + 1] as number, 4);
}

/**
 * A character of another script that a literal opens with, at a word's beginning if it is a script letter
 * (detector.ts, NOT_AFTER_LETTER): a start if the literal's first two characters stand here.
 */
function wideStart(f: Found, i: number, c: number): void {
  const slot = widePair(c, charAt(f.text, i + 1));
  if (((f.plan.widePairs[slot >>> 5] as number) & (1 << (slot & 31))) !== 0) special(f, i, c);
}

/** Whether a literal of `anywhere` may stand at ASCII `c` at `i`, by the characters beside it (anyNext; anyPrev and insideNext). */
function besideLiteral(plan: TriggerPlan, text: string, i: number, c: number): boolean {
  const next = charAt(text, i + 1);
  if (next >= 128 || hasBit(plan.anyNext, c * 128 + next) === 1) return true;
  if (hasBit(plan.insideNext, c * 128 + next) === 0) return false;
  const prev = i > 0 ? text.charCodeAt(i - 1) : PAST_END;
  return prev >= 128 || hasBit(plan.anyPrev, c * 128 + prev) === 1;
}

/**
 * The literals of `packed` (the word table's ASCII list of `c`, trigger-words.ts) that
 * stand at `i`, each beginning its offset before it.
 */
function asciiLiterals(f: Found, i: number, packed: number): void {
  const { literals, chars } = f.plan.words;
  const text = f.text;
  const first = packed >>> 8;
  for (let l = first; l < first + (packed & 255); l++) {
    const at = l * LITERAL_FIELDS;
    const from = literals[at] as number;
    const info = literals[at + 1] as number;
    const length = info & 0xfff;
    const p = i - ((info >>> 12) & 0xfff);
    if (p < 0 || p + length > text.length) continue;
    let k = 0;
    if (info >>> 24 === 0) while (k < length && text.charCodeAt(p + k) === chars[from + k]) k++;
    else while (k < length && lower(text.charCodeAt(p + k)) === chars[from + k]) k++;
    if (k === length) hit(f, i, literals[at + 2] as number, literals[at + 3] as number);
  }
}

/**
 * Whether a name whose last two characters are among `ends` (TriggerPlan.assignments) can stand before the sign at
 * `i` in its 20-character window, read back past what may follow a name there (assignments.ts): up to three blanks, a
 * `]`, a quote and a backslash. A digit there may be the name's own (`b64`), so it rules nothing out; so does a window
 * too short to read two characters in. Prose's comma mostly follows an ending no name has (`however,`).
 */
function mayEndName(text: string, i: number, ends: Uint8Array): boolean {
  const floor = Math.max(0, i - 20);
  let k = i - 1;
  while (k >= floor && i - k <= 3 && isBlank(text.charCodeAt(k))) k--;
  if (k >= floor && text.charCodeAt(k) === 93) k--;
  if (k >= floor && (text.charCodeAt(k) === 34 || text.charCodeAt(k) === 39)) k--;
  if (k >= floor && text.charCodeAt(k) === 92) k--;
  if (k - 1 < floor) return true;
  const last = text.charCodeAt(k);
  if (isDigit(last)) return true;
  const first = text.charCodeAt(k - 1);
  return last < 128 && first < 128 && hasBit(ends, (LOWER[first] as number) * 128 + (LOWER[last] as number)) === 1;
}

/** An ASCII character some start is marked for (SPECIAL). */
function special(f: Found, i: number, c: number): void {
  const { text, plan } = f;
  if (c < 128) {
    const packed = plan.words.ascii[c] as number;
    if (packed !== 0 && besideLiteral(plan, text, i, c)) asciiLiterals(f, i, packed);
  } else {
    const literals = plan.anywhere.get(c);
    if (literals) for (const lit of literals) if (literalAt(text, i - lit.offset, lit)) hit(f, i, lit.feed, lit.gate);
  }
  if (c === 10) {
    if (plan.anyLine) lineStart(f, i, i + 1);
  } else if (c === 64) {
    // `@`: an e-mail's local part starts at a boundary within 64 characters before it.
    if (!plan.beforeAt) return;
    for (let p = Math.max(0, i - 64, f.atCovered); p < i; p++) if (wordAt(f, p) !== wordAt(f, p - 1)) push(f, p, plan.beforeAt);
    f.atCovered = i;
    f.ordered = false;
  } else if (c === 58 || c === 61 || c === 44) {
    // `:`, `=` or `,` after a credential-like name: the assignment starts at a word at most 96 characters back
    // (a name of three segments, `CARGO_REGISTRY_TOKEN`, `my.app.db_password`).
    for (const a of plan.assignments) {
      if (a.ends !== null && !mayEndName(text, i, a.ends)) continue;
      const before = text.slice(Math.max(0, i - 20), i);
      a.name.lastIndex = before.length;
      if (!a.name.test(before)) continue;
      for (let p = Math.max(0, i - 96, f.assignCovered); p < i; p++) if (wordAt(f, p) && !wordAt(f, p - 1)) push(f, p, a.feed);
      f.assignCovered = i;
      f.ordered = false;
    }
  } else if (c === 43 || c === 40) {
    const next = charAt(text, i + 1);
    if (plan.signedNumber && isDigit(next) && (c === 40 || next !== 48)) push(f, i, plan.signedNumber);
  }
}

/**
 * The candidate start positions of both passes. Linear in the text: every character is read once, and once more at most by the
 * back-windows of `@` (64 characters) and of assignment signs (96). A word is read by
 * a loop of its own that only looks for its end (and for `_`, which ends a base64
 * run): most of a text is words, and that loop is the tightest the JIT can make. The
 * work at the rare places sits in functions it calls.
 */
export function findStarts(text: string, plan: TriggerPlan): Starts {
  const f: Found = {
    text,
    plan,
    out: [[], [], []],
    feeds: [[], [], []],
    gates: [],
    zeroWidth: false,
    ordered: true,
    atCovered: 0,
    assignCovered: 0,
  };
  if (plan.anyLine) lineStart(f, 0, 0);
  const classes = plan.classes;
  const keySeen = plan.keySeen;
  const wide = plan.wide;
  const n = text.length;
  /** Where the base64 run that reaches the current character began (-1: none), and whether it was pushed. */
  let runStart = -1;
  let runPushed = false;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    const cls = c < 128 ? (classes[c] as number) : 0;
    if (cls & WORD) {
      // To the word's end; `every` keeps the classes all its characters share.
      let j = i + 1;
      let every = cls;
      while (j < n) {
        const d = text.charCodeAt(j);
        const dc = d < 128 ? (classes[d] as number) : 0;
        if (!(dc & WORD)) break;
        every &= dc;
        j++;
      }
      // Most words are ruled out here, by the key of their first three or four letters, without a call
      // (nearly every pair of first letters opens some literal, so the first two rule out few). A word
      // of four characters or more holds both keys' characters: ASCII, inside the text.
      if (c <= 90) wordStart(f, i, c);
      else if (j - i >= 4) {
        const k3 = key3(c, text.charCodeAt(i + 1), text.charCodeAt(i + 2));
        if (hasBit(keySeen, seenSlot(k3)) || hasBit(keySeen, seenSlot(key4(k3, text.charCodeAt(i + 3))))) wordStart(f, i, c);
      } else {
        const c1 = charAt(text, i + 1);
        const c2 = charAt(text, i + 2);
        const c3 = charAt(text, i + 3);
        if (c1 <= 255 && c2 <= 255) {
          const k3 = key3(c, c1, c2);
          if (hasBit(keySeen, seenSlot(k3)) || (c3 <= 255 && hasBit(keySeen, seenSlot(key4(k3, c3))))) wordStart(f, i, c);
        }
      }
      if (every & BASE64) {
        // Letters and digits only: the base64 run goes on through the word.
        if (runStart < 0) {
          runStart = i;
          runPushed = false;
        }
        if (!runPushed && j - runStart >= 24 && plan.base64Run) {
          push(f, runStart, plan.base64Run);
          runPushed = true;
          f.ordered = false;
        }
      } else {
        // `_` ends the run, and none can start after it (no word boundary there).
        const end = text.indexOf("_", i);
        const start = runStart < 0 ? i : runStart;
        if (!(runStart >= 0 && runPushed) && end - start >= 24 && plan.base64Run) {
          push(f, start, plan.base64Run);
          f.ordered = false;
        }
        runStart = -1;
      }
      i = j;
      continue;
    }
    if (cls & BASE64) {
      // `+` or `/`: inside a base64 run, between words.
      if (runStart < 0) {
        runStart = i;
        runPushed = false;
      } else if (!runPushed && i - runStart === 23 && plan.base64Run) {
        push(f, runStart, plan.base64Run);
        runPushed = true;
        f.ordered = false;
      }
    } else runStart = -1;
    if (cls & SPECIAL) special(f, i, c);
    else if (c >= 128) {
      // A script letter inside a word (the one before it a letter too) opens nothing: most of such a text is ruled out here.
      if (((wide[c >>> 5] as number) & (1 << (c & 31))) !== 0 && !(isScriptLetter(c) && i > 0 && isScriptLetter(text.charCodeAt(i - 1))))
        wideStart(f, i, c);
      if (plan.invisible && isInvisible(c)) push(f, i, plan.invisible);
      else if (isZeroWidth(c)) f.zeroWidth = true;
    }
    i++;
  }
  if (!f.ordered) {
    sortStarts(f.out[0], f.feeds[0], plan.feeds.length);
    sortStarts(f.out[1], f.feeds[1], plan.feeds.length);
    sortStarts(f.out[2], f.feeds[2], plan.feeds.length);
  }
  return {
    exact: f.out[0],
    folded: f.out[1],
    apart: f.out[2],
    exactFeeds: f.feeds[0],
    foldedFeeds: f.feeds[1],
    apartFeeds: f.feeds[2],
    zeroWidth: f.zeroWidth,
    gates: f.gates,
  };
}

/** Sorts starts by position, each keeping its feed (as one number, position × feeds + feed). */
function sortStarts(positions: number[], feeds: number[], span: number): void {
  const keyed = positions.map((p, k) => p * span + (feeds[k] as number)).sort((a, b) => a - b);
  for (let k = 0; k < keyed.length; k++) {
    const key = keyed[k] as number;
    positions[k] = Math.floor(key / span);
    feeds[k] = key % span;
  }
}
