/**
 * The trigger plan, built once from the detectors: which literals, word shapes and
 * characters can open a match, for the case-sensitive and the case-folding pass, in
 * the tables the loop of triggers.ts reads (by character class, by the first two
 * characters, by a hash of the first three or four). The lower-casing and the keys
 * are shared with that loop, so both read a word the same way. Each start names the
 * detectors it feeds, so the engine tries at a place only the few patterns that can
 * match there, not every pattern of the pass.
 */
import { type Detector, isScriptLetter, NOT_AFTER_LETTER, type Start } from "./detector.ts";
import { leadingLiterals } from "./leading-literals.ts";
import { key3, key4, LOWER, lower, seenSlot, setBit, unfoldable, widePair } from "./trigger-chars.ts";
import { type WordTable, wordTable } from "./trigger-words.ts";

/** Which detectors a start feeds: an index into `TriggerPlan.feeds`; 0 feeds none. */
export type FeedId = number;

/** The detectors a start can open, as indices into the three passes' detector lists given to planTriggers, ascending. */
export interface Feed {
  exact: readonly number[];
  folded: readonly number[];
  /** The case-folding rules tried apart (Detector.apart). */
  apart: readonly number[];
}

export interface Literal {
  text: string;
  /** Compared ignoring case (a case-folding detector's). */
  anyCase: boolean;
  feed: FeedId;
  /** Where the literal begins before the character it is found by (a gate keyword by its punctuation); 0 otherwise. */
  offset: number;
  /** The gated rule this keyword opens, or -1 for a start. */
  gate: number;
  /**
   * In a list of word literals, the characters this one shares with the case-folding
   * literal before it (sortWordLiterals); 0 otherwise. What the one before failed at,
   * this one fails at too when it shares that character, without comparing.
   */
  shared: number;
}

export interface TriggerPlan {
  /** Word literals of three characters by their lower-cased characters (`key3`), and longer ones by their first four (`key4`). */
  words3: Map<number, Literal[]>;
  words4: Map<number, Literal[]>;
  /**
   * A hash of every key in words3 and words4, one bit a slot (see `hasBit`): most words
   * are ruled out here, without a map lookup. Bits, not bytes: the trigger walk reads
   * these tables at every word, and after a pause (another process on the core) each
   * line of them it reads is fetched again, so the smaller they are the fewer.
   */
  keySeen: Uint8Array;
  /** words3 and words4, and the ASCII characters of `anywhere`, as the walk reads them (trigger-words.ts). */
  words: WordTable;
  /** Literals found anywhere, by their first character. */
  anywhere: Map<number, Literal[]>;
  /**
   * For an ASCII character of `anywhere`, one bit per lower-cased ASCII character that may
   * stand right after it (`anyNext`, for literals the character opens) or right before it
   * (`anyPrev`, for gate keywords found by their punctuation), at `c * 128 + neighbour`:
   * a sentence's `.` or a phrase's `-` in prose mostly opens none of its many literals,
   * and is ruled out here instead of by comparing each.
   */
  anyNext: Uint8Array;
  anyPrev: Uint8Array;
  /**
   * The character right after it for a keyword it sits inside (any, when the keyword ends
   * at it): with anyPrev, both neighbours. A sentence's `. ` after `hooks`, `gems` or
   * `note` passed anyPrev alone and compared all eleven literals of `.`.
   */
  insideNext: Uint8Array;
  /** Non-ASCII characters (in either case) a literal of `anywhere` opens with (`игнорир`, `忽略`), one bit each: 8 KB, read once per such character of a text. */
  wide: Uint32Array;
  /** Their first two characters (in either case) by `widePair`, one bit each: most characters of a text in another script are ruled out here. */
  widePairs: Uint32Array;
  /**
   * A name read back from an assignment's sign: tried with `lastIndex` at the end of the text before the sign (endingAt),
   * only where the two characters it would end with (lower-cased, one bit each at `first * 128 + second`) are among `ends`.
   */
  assignments: { name: RegExp; ends: Uint8Array | null; feed: FeedId }[];
  /** Lower-cased first characters after a line start, and what they feed. */
  lineFirst: Map<number, FeedId>;
  /** Those of Latin-1 characters, by code (0: none). */
  lineFirstLatin1: Int32Array;
  /** Lower-cased ASCII first characters of line starts gated by their first label (Start `afterLabel`), and what they feed. */
  lineLabelled: Int32Array;
  /** One bit per ASCII character that may follow the first label of a line opening with `c`, at `c * 128 + after`. */
  labelAfter: Uint8Array;
  /** Whether any detector starts at a line (the walk reads line starts only then). */
  anyLine: boolean;
  digitWord: FeedId;
  capsDigitsWord: FeedId;
  beforeAt: FeedId;
  signedNumber: FeedId;
  invisible: FeedId;
  base64Run: FeedId;
  /** Every feed by its id; feeds[0] is the empty one. */
  feeds: Feed[];
  /** Per feed, the passes it has detectors in: bit 0 the case-sensitive one, bit 1 the case-folding one, bit 2 the rules tried apart. */
  feedPasses: Uint8Array;
  /** Per ASCII character: WORD, BASE64 and SPECIAL (this plan has a trigger there). */
  classes: Uint8Array;
}

export const WORD = 1;
export const BASE64 = 2;
export const SPECIAL = 4;

/**
 * Marks what may stand beside `c` for `lit` to be there: the character after it for a
 * literal it opens (any, when the literal ends at it), the one before it for a keyword it
 * sits inside. Marked lower-cased, as the walk reads them; a non-ASCII neighbour is never
 * ruled out there, so only ASCII ones are marked.
 */
function neighbours(plan: TriggerPlan, c: number, lit: Literal): void {
  if (lit.offset === 0) mark(plan.anyNext, c, lit.text, 1);
  else {
    mark(plan.anyPrev, c, lit.text, lit.offset - 1);
    mark(plan.insideNext, c, lit.text, lit.offset + 1);
  }
}

/** Marks `text`'s character at `at` (every character past its end, none when it is not ASCII) beside `c`. */
function mark(bits: Uint8Array, c: number, text: string, at: number): void {
  const n = at < text.length ? text.charCodeAt(at) : -1;
  if (n >= 128) return;
  for (let x = 0; x < 128; x++) if (n < 0 || (LOWER[x] as number) === lower(n)) setBit(bits, c * 128 + x);
}
/**
 * One key's word literals, the case-sensitive ones first as they were, then the
 * case-folding ones in code-unit order, each with what it shares with the one before:
 * the trigger walk compares them as one pass down the list (triggers.ts, wordLiterals),
 * and `without`, `without `, `without telling`... are read once, not once each.
 */
function sortWordLiterals(literals: Literal[]): Literal[] {
  // Plain loops: this runs once per key (about a thousand) at start-up, before the JIT has compiled anything, where
  // each filter, spread and callback of the version it replaced cost tens of microseconds.
  if (literals.length === 1) {
    const only = literals[0] as Literal;
    if (only.anyCase) only.shared = 0;
    return literals;
  }
  const sensitive: Literal[] = [];
  const folding: Literal[] = [];
  for (const l of literals) (l.anyCase ? folding : sensitive).push(l);
  folding.sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
  let before = "";
  for (const l of folding) {
    let n = 0;
    while (n < before.length && n < l.text.length && before.charCodeAt(n) === l.text.charCodeAt(n)) n++;
    l.shared = n;
    before = l.text;
    sensitive.push(l);
  }
  return sensitive;
}
/** Whether the first `n` characters of `text` are Latin-1 (a character beyond it has a first code unit above 255). */
const latin1 = (text: string, n: number) => {
  for (let k = 0; k < n && k < text.length; k++) if (text.charCodeAt(k) > 255) return false;
  return true;
};

function baseClasses(): Uint8Array {
  const classes = new Uint8Array(128);
  for (let c = 0; c < 128; c++) {
    const ch = String.fromCharCode(c);
    if (/\w/.test(ch)) classes[c] = (classes[c] as number) | WORD;
    if (/[A-Za-z0-9+/]/.test(ch)) classes[c] = (classes[c] as number) | BASE64;
  }
  return classes;
}

function startsOf(d: Detector): readonly Start[] {
  if (d.start) return Array.isArray(d.start) ? d.start : [d.start as Start];
  const literals = leadingLiterals(d.pattern);
  if (!literals) throw new Error(`detector ${d.kind}: its pattern does not open with \\b and literals, so it must declare where it starts`);
  return [{ at: "word", literals }];
}

/**
 * A pattern that ends with `$` (an assignment's name, read in the 20 characters before
 * its sign) as a sticky look-behind, tried at their end: the same verdict, since a
 * match ending there is a suffix of them either way, read backwards from the sign, so a
 * comma in prose fails at the letter before it instead of the pattern being tried from
 * each of the 20. Any other pattern is kept as it is (it ignores `lastIndex`).
 */
export function endingAt(name: RegExp): RegExp {
  const source = name.source;
  const anchored = /(?:^|[^\\])(?:\\\\)*\$$/.test(source);
  if (!anchored || name.flags.replace("i", "") !== "" || /\\[1-9]|\\k</.test(source)) return name;
  return new RegExp(`(?<=${source.slice(0, -1)})`, `${name.flags}y`);
}

/** Two-character endings (lower case, ASCII) as one bit each at `first * 128 + second`. */
function pairBits(pairs: readonly string[]): Uint8Array {
  const bits = new Uint8Array(2048);
  for (const pair of pairs) setBit(bits, pair.charCodeAt(0) * 128 + pair.charCodeAt(1));
  return bits;
}

/**
 * A gate keyword made of word characters is looked for where a word begins, like a
 * word literal; one with other characters anywhere, by its first such character.
 */
export const gateByPunctuation = (keyword: string) => keyword.search(/\W/);

/**
 * Compiles the starts of both passes' detectors into one plan for `findStarts`, and
 * the keywords of the gated rules (`gates[g]` opens rule g; see gateByPunctuation).
 */
export function planTriggers(
  exact: readonly Detector[],
  folded: readonly Detector[],
  gates: readonly (readonly string[])[] = [],
  apart: readonly Detector[] = [],
): TriggerPlan {
  const feeds: Feed[] = [{ exact: [], folded: [], apart: [] }];
  const feedIds = new Map<string, FeedId>([["||", 0]]);
  /** The feed of the three lists' detectors, one id per distinct triple of lists. */
  const feedOf = (e: readonly number[], f: readonly number[], a: readonly number[] = []): FeedId => {
    const key = `${e.join(",")}|${f.join(",")}|${a.join(",")}`;
    let id = feedIds.get(key);
    if (id === undefined) {
      id = feeds.push({ exact: e, folded: f, apart: a }) - 1;
      feedIds.set(key, id);
    }
    return id;
  };
  /** Two feeds' lists (ascending, each index once, as every list here is) merged: the same as sorting their set, without a Set and a sort a join at start-up. */
  const union = (a: readonly number[], b: readonly number[]): number[] => {
    const out: number[] = [];
    let i = 0;
    let j = 0;
    while (i < a.length || j < b.length) {
      const x = i < a.length ? (a[i] as number) : Number.POSITIVE_INFINITY;
      const y = j < b.length ? (b[j] as number) : Number.POSITIVE_INFINITY;
      out.push(x <= y ? x : y);
      if (x <= y) i++;
      if (y <= x) j++;
    }
    return out;
  };
  /** What starts shared by two feeds feed. */
  const join = (a: FeedId, b: FeedId): FeedId =>
    a === 0
      ? b
      : b === 0
        ? a
        : feedOf(
            union(feeds[a]?.exact ?? [], feeds[b]?.exact ?? []),
            union(feeds[a]?.folded ?? [], feeds[b]?.folded ?? []),
            union(feeds[a]?.apart ?? [], feeds[b]?.apart ?? []),
          );
  const plan: TriggerPlan = {
    words3: new Map(),
    words4: new Map(),
    keySeen: new Uint8Array(8192),
    words: wordTable([]),
    anywhere: new Map(),
    anyNext: new Uint8Array(2048),
    anyPrev: new Uint8Array(2048),
    insideNext: new Uint8Array(2048),
    wide: new Uint32Array(2048),
    widePairs: new Uint32Array(2048),
    assignments: [],
    lineFirst: new Map(),
    lineFirstLatin1: new Int32Array(256),
    lineLabelled: new Int32Array(128),
    labelAfter: new Uint8Array(2048),
    anyLine: false,
    digitWord: 0,
    capsDigitsWord: 0,
    beforeAt: 0,
    signedNumber: 0,
    invisible: 0,
    base64Run: 0,
    feeds,
    feedPasses: new Uint8Array(0),
    classes: baseClasses(),
  };
  const special = (ch: string) => {
    const c = ch.charCodeAt(0);
    if (c >= 128 || (plan.classes[c] as number) & WORD)
      throw new Error(`a trigger character must be ASCII punctuation: ${JSON.stringify(ch)}`);
    plan.classes[c] = (plan.classes[c] as number) | SPECIAL;
  };
  /** Adds `text` under `key`: lower-cased for the case-folding pass, which compares it ignoring case. */
  const file = (map: Map<number, Literal[]>, key: number, text: string, feed: FeedId, anyCase: boolean) => {
    const lit = { text: anyCase ? text.toLowerCase() : text, anyCase, feed, offset: 0, gate: -1, shared: 0 };
    // Detectors that share a literal (two vendors' `AKIA`) share one entry, so a start is reported once.
    const list = map.get(key);
    if (list === undefined) {
      map.set(key, [lit]);
      return;
    }
    for (const l of list)
      if (l.text === lit.text && l.anyCase === lit.anyCase && l.gate < 0) {
        l.feed = join(l.feed, feed);
        return;
      }
    list.push(lit);
  };
  /** A non-ASCII literal's first character, in both cases when it folds case; compared by `lower` after it, so that must fold each character as `i` does. */
  const wideFirsts = (d: Detector, text: string, passes: number): number[] => {
    const folded = passes !== 1 ? unfoldable(text) : [];
    if (folded.length > 0 || text.length !== [...text].length)
      throw new Error(
        `detector ${d.kind}: literal ${JSON.stringify(text)} has characters the trigger pass cannot fold or read: ${folded.join("")}`,
      );
    const first = text[0] as string;
    // The trigger pass takes a script letter only at a word's beginning; the expression must not match elsewhere.
    if (isScriptLetter(first.charCodeAt(0)) && !d.pattern.startsWith(NOT_AFTER_LETTER))
      throw new Error(`detector ${d.kind}: a literal opening with a script letter needs a pattern opening with NOT_AFTER_LETTER`);
    if (text.length < 2) throw new Error(`detector ${d.kind}: literal ${JSON.stringify(text)} of another script needs two characters`);
    const second = text[1] as string;
    for (const a of passes !== 1 ? [first.toLowerCase(), first.toUpperCase()] : [first])
      for (const b of passes !== 1 ? [second.toLowerCase(), second.toUpperCase()] : [second]) {
        const slot = widePair(a.charCodeAt(0), b.charCodeAt(0));
        plan.widePairs[slot >>> 5] = (plan.widePairs[slot >>> 5] as number) | (1 << (slot & 31));
      }
    const firsts = passes !== 1 ? [first.toLowerCase(), first.toUpperCase()] : [first];
    const codes = [...new Set(firsts.map((ch) => ch.charCodeAt(0)))];
    for (const c of codes) plan.wide[c >>> 5] = (plan.wide[c >>> 5] as number) | (1 << (c & 31));
    return codes;
  };
  const add = (d: Detector, passes: number, feed: FeedId) => {
    for (const s of startsOf(d)) {
      switch (s.at) {
        case "word":
          for (const text of s.literals) {
            if (text.length < 3 || !latin1(text, 4))
              throw new Error(`detector ${d.kind}: word literal ${JSON.stringify(text)} needs three Latin-1 characters`);
            // A word that begins with a digit feeds only the digit-word start (triggers.ts): such a literal would never be met.
            if (/^\d/.test(text))
              throw new Error(`detector ${d.kind}: word literal ${JSON.stringify(text)} opens with a digit; start at "digit-word"`);
            // The walk compares a word literal's characters after its first four by `lower`: in capitals each must fold as `i` does.
            if (passes !== 1 && unfoldable(text).length > 0)
              throw new Error(`detector ${d.kind}: word literal ${JSON.stringify(text)} has characters the trigger pass cannot fold`);
            const k3 = key3(text.charCodeAt(0), text.charCodeAt(1), text.charCodeAt(2));
            const [map, key] = text.length === 3 ? [plan.words3, k3] : [plan.words4, key4(k3, text.charCodeAt(3))];
            setBit(plan.keySeen, seenSlot(key));
            file(map, key, text, feed, passes !== 1);
          }
          break;
        case "literal":
          for (const text of s.literals) {
            if (text.charCodeAt(0) < 128) {
              special(text[0] as string);
              file(plan.anywhere, text.charCodeAt(0), text, feed, passes !== 1);
            } else for (const c of wideFirsts(d, text, passes)) file(plan.anywhere, c, text, feed, passes !== 1);
          }
          break;
        case "assignment":
          special(":");
          special("=");
          special(",");
          plan.assignments.push({ name: endingAt(s.name), ends: s.ends ? pairBits(s.ends) : null, feed });
          break;
        case "line":
          special("\n");
          plan.anyLine = true;
          for (const ch of s.first) {
            const c = lower(ch.charCodeAt(0));
            if (s.afterLabel === undefined) plan.lineFirst.set(c, join(plan.lineFirst.get(c) ?? 0, feed));
            else {
              if (c >= 128) throw new Error(`a line start gated by its first label opens with ASCII, not ${JSON.stringify(ch)}`);
              plan.lineLabelled[c] = join(plan.lineLabelled[c] as number, feed);
              for (const after of s.afterLabel) mark(plan.labelAfter, c, after, 0);
            }
          }
          break;
        case "before-at":
          special("@");
          plan.beforeAt = join(plan.beforeAt, feed);
          break;
        case "signed-number":
          special("+");
          special("(");
          plan.signedNumber = join(plan.signedNumber, feed);
          break;
        case "digit-word":
          plan.digitWord = join(plan.digitWord, feed);
          break;
        case "caps-digits-word":
          plan.capsDigitsWord = join(plan.capsDigitsWord, feed);
          break;
        case "invisible":
          plan.invisible = join(plan.invisible, feed);
          break;
        case "base64-run":
          plan.base64Run = join(plan.base64Run, feed);
          break;
      }
    }
  };
  exact.forEach((d, i) => add(d, 1, feedOf([i], [])));
  folded.forEach((d, i) => add(d, 2, feedOf([], [i])));
  apart.forEach((d, i) => add(d, 4, feedOf([], [], [i])));
  gates.forEach((keywords, gate) => {
    for (const keyword of keywords) {
      const text = keyword.toLowerCase();
      const at = gateByPunctuation(text);
      if (at < 0) {
        if (text.length < 3 || !latin1(text, 4)) throw new Error(`gate keyword ${JSON.stringify(text)} needs three Latin-1 characters`);
        const k3 = key3(text.charCodeAt(0), text.charCodeAt(1), text.charCodeAt(2));
        const [map, key] = text.length === 3 ? [plan.words3, k3] : [plan.words4, key4(k3, text.charCodeAt(3))];
        setBit(plan.keySeen, seenSlot(key));
        map.set(key, [...(map.get(key) ?? []), { text, anyCase: true, feed: 0, offset: 0, gate, shared: 0 }]);
      } else {
        special(text[at] as string);
        const c = text.charCodeAt(at);
        plan.anywhere.set(c, [...(plan.anywhere.get(c) ?? []), { text, anyCase: true, feed: 0, offset: at, gate, shared: 0 }]);
      }
    }
  });
  for (const words of [plan.words3, plan.words4]) for (const [key, literals] of words) words.set(key, sortWordLiterals(literals));
  plan.words = wordTable([...plan.words3, ...plan.words4], plan.anywhere);
  for (const [c, feed] of plan.lineFirst) if (c < 256) plan.lineFirstLatin1[c] = feed;
  for (const [c, literals] of plan.anywhere) if (c < 128) for (const lit of literals) neighbours(plan, c, lit);
  plan.feedPasses = Uint8Array.from(feeds, (f) => (f.exact.length ? 1 : 0) | (f.folded.length ? 2 : 0) | (f.apart.length ? 4 : 0));
  return plan;
}
