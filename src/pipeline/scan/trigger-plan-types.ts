/** The trigger plan's shape: the tables the walk (triggers.ts) reads, what a literal and a feed are, and the character classes every plan starts from. */
import type { WordTable } from "./trigger-words.ts";

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
  /** Per ASCII character: WORD, BASE64, LETTER and SPECIAL (this plan has a trigger there). */
  classes: Uint8Array;
}

export const WORD = 1;
export const BASE64 = 2;
export const SPECIAL = 4;
/** An ASCII letter: a word whose characters do not all share it holds a digit or `_` (rewritten-chars.ts reads such words). */
export const LETTER = 8;

/** The classes of the ASCII characters before any trigger is marked: WORD, BASE64 and LETTER. */
export function baseClasses(): Uint8Array {
  const classes = new Uint8Array(128);
  for (let c = 0; c < 128; c++) {
    const ch = String.fromCharCode(c);
    if (/\w/.test(ch)) classes[c] = (classes[c] as number) | WORD;
    if (/[A-Za-z0-9+/]/.test(ch)) classes[c] = (classes[c] as number) | BASE64;
    if (/[A-Za-z]/.test(ch)) classes[c] = (classes[c] as number) | LETTER;
  }
  return classes;
}
