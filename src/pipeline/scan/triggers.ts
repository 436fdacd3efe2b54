/**
 * Where detectors can match: one pass over a text's characters finds every place a
 * detector's `start` allows, for the case-sensitive and the case-folding pass, as the
 * plan (trigger-plan.ts) lists them. The engine tries its patterns only there (sticky)
 * instead of at every character, so ordinary prose is read once, by this loop, and
 * hardly at all by the regex engine.
 */
import { isScriptLetter } from "./detector.ts";
import { charAt, hasBit, key3, key4, seenSlot } from "./trigger-chars.ts";
import { type Found, push, type Starts } from "./trigger-found.ts";
import { BASE64, LETTER, SPECIAL, type TriggerPlan, WORD } from "./trigger-plan-types.ts";
import { afterWord, LEET, leetCue, lookBefore, SPACED, SPLIT } from "./rewritten-chars.ts";
import { mayRewrite, rewrittenLetter } from "./rewritten-words.ts";
import { lineStart, special, wideStart } from "./trigger-specials.ts";
import { wordStart } from "./trigger-word-starts.ts";

/** The characters of ZERO_WIDTH (detector.ts), as the loop meets them. */
const isZeroWidth = (c: number) => (c >= 0x200b && c <= 0x200d) || c === 0x2060 || c === 0xfeff;
/** Unicode tag characters (as their high surrogate) and bidirectional controls. */
const isInvisible = (c: number) => c === 0xdb40 || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);

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
    telling: 0,
    foldedWords: "",
    phrases: undefined,
    phraseList: undefined,
    foldedUpTo: 0,
    accentUpTo: 0,
    accentWord: 0,
    oneLetterAt: -1,
    oneLetterRun: 0,
    oneLetterSep: 0,
    oneLetterGap: 0,
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
  /** Where the last word of ASCII letters and digits ended, and the last character outside ASCII stood: a rewriting's characters stand beside such words. */
  let wordEnd = -1;
  let wideAt = -2;
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
      // A word that may be rewritten: after a look-alike, a one-letter word in a spaced-out one, or letters and digits in leetspeak.
      if (wideAt === i - 1) f.telling |= lookBefore(text, i);
      wordEnd = j;
      if (j - i === 1) {
        // One letter: the run goes on only within four characters of the one before (English's "a" and "I" stand apart).
        if (cls & LETTER) {
          if (i - f.oneLetterAt <= 4) oneLetter(f, i);
          else {
            f.oneLetterAt = i;
            f.oneLetterRun = 1;
          }
        }
      } else if ((every & LETTER) === 0 && j - i >= 3 && (f.telling & LEET) === 0 && leetCue(text, i, j)) f.telling |= LEET;
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
      else {
        if (mayRewrite(c)) rewrittenLetter(f, i, c);
        if (wordEnd === i) {
          const beside = afterWord(text, i, c);
          if (beside === SPLIT) f.zeroWidth = true;
          else f.telling |= beside;
        }
      }
      wideAt = i;
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
    telling: f.telling,
    foldedWords: f.foldedWords,
    gates: f.gates,
  };
}

/**
 * A one-letter word at `i`: one more of a run when the one before ended a gap of one to three
 * copies of one separator before it (the same gap as the run's), a new run otherwise. Five in a
 * run tell a word spelled out (SPACED); "e.g." and "U.S.A." are shorter.
 */
function oneLetter(f: Found, i: number): void {
  const { text } = f;
  const gap = i - f.oneLetterAt - 1;
  const sep = text.charCodeAt(i - 1);
  let same = f.oneLetterAt >= 0 && gap >= 1 && gap <= 3 && sep !== 10;
  for (let k = i - gap; same && k < i - 1; k++) same = text.charCodeAt(k) === sep;
  if (same && (f.oneLetterRun === 1 || (sep === f.oneLetterSep && gap === f.oneLetterGap))) {
    f.oneLetterRun++;
    f.oneLetterSep = sep;
    f.oneLetterGap = gap;
    if (f.oneLetterRun >= 5) f.telling |= SPACED;
  } else f.oneLetterRun = 1;
  f.oneLetterAt = i;
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
