/**
 * The trigger plan, built once from the detectors: which literals, word shapes and
 * characters can open a match, for the case-sensitive and the case-folding pass, in
 * the tables the loop of triggers.ts reads (by character class, by the first two
 * characters, by a hash of the first three or four). The lower-casing and the keys
 * are shared with that loop, so both read a word the same way. Each start names the
 * detectors it feeds, so the engine tries at a place only the few patterns that can
 * match there, not every pattern of the pass.
 */
import { type Detector, isScriptLetter, NOT_AFTER_LETTER } from "./detector.ts";
import { key3, key4, lower, seenSlot, setBit, unfoldable, widePair } from "./trigger-chars.ts";
import { latin1, mark, neighbours, sortWordLiterals } from "./trigger-literals.ts";
import { baseClasses, type Feed, type FeedId, type Literal, SPECIAL, type TriggerPlan, WORD } from "./trigger-plan-types.ts";
import { endingAt, gateByPunctuation, pairBits, startsOf } from "./trigger-starts.ts";
import { wordTable } from "./trigger-words.ts";

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
            // A word that begins with a digit feeds only the digit-word start (trigger-word-starts.ts): such a literal would never be met.
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
  // An `&` may open an HTML character reference, which a rewritten attack hides its letters in (rewritten-chars.ts).
  special("&");
  for (const words of [plan.words3, plan.words4]) for (const [key, literals] of words) words.set(key, sortWordLiterals(literals));
  plan.words = wordTable([...plan.words3, ...plan.words4], plan.anywhere);
  for (const [c, feed] of plan.lineFirst) if (c < 256) plan.lineFirstLatin1[c] = feed;
  for (const [c, literals] of plan.anywhere) if (c < 128) for (const lit of literals) neighbours(plan, c, lit);
  plan.feedPasses = Uint8Array.from(feeds, (f) => (f.exact.length ? 1 : 0) | (f.folded.length ? 2 : 0) | (f.apart.length ? 4 : 0));
  return plan;
}
