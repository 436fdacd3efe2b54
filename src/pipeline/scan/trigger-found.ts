/** One text's trigger walk as it goes: the starts found so far (Starts, what findStarts returns) and how a start or a gate opened is recorded. */
import { type FeedId, type TriggerPlan, WORD } from "./trigger-plan-types.ts";

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
  /** The text holds zero-width characters, or another format character inside a word (detector.ts, SPLITS_WORDS). */
  zeroWidth: boolean;
  /** What tells that the text may be rewritten (rewritten-chars.ts): its bits, 0 for none. */
  telling: number;
  /** Its phrases of letters that fold to ASCII (`ＡＰＩ`), folded, a line each (rewritten-words.ts): they open the normalized reading when they hold what the scanner acts on. */
  foldedWords: string;
  /** The gated rules whose keywords the text holds (duplicates possible); when absent, the scan works them out itself. */
  gates?: number[];
}

/** One text's scan: the candidates found so far, and the back-windows already covered. */
export interface Found {
  text: string;
  plan: TriggerPlan;
  out: [number[], number[], number[]];
  /** Beside each start in `out`, its feed. */
  feeds: [number[], number[], number[]];
  gates: number[];
  zeroWidth: boolean;
  telling: number;
  foldedWords: string;
  /** The phrases in foldedWords by a hash of their raw characters (rewritten-words.ts), made when the first is met. */
  phrases?: Map<number, number>;
  /** The same as a list of hashes and places, before there are many (rewritten-words.ts). */
  phraseList?: number[];
  /** Where the last folded phrase and the last accented word read ended (rewritten-words.ts): each is read once. */
  foldedUpTo: number;
  accentUpTo: number;
  /** The hash of the first accented word that counts (0: none yet). */
  accentWord: number;
  /** The last one-letter word's place (-1: none), how many came before it each after the same separator, and that separator (its first character and length). */
  oneLetterAt: number;
  oneLetterRun: number;
  oneLetterSep: number;
  oneLetterGap: number;
  /** False once a position was pushed behind a later one (back-windows, base64 runs). */
  ordered: boolean;
  /** Back-windows already pushed up to here: overlapping windows (`@@@@`) push each position once. */
  atCovered: number;
  assignCovered: number;
}

export function push(f: Found, p: number, feed: FeedId): void {
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
export function hit(f: Found, p: number, feed: FeedId, gate: number): void {
  if (gate >= 0) f.gates.push(gate);
  else push(f, p, feed);
}

export function wordAt(f: Found, p: number): boolean {
  if (p < 0) return false;
  const c = f.text.charCodeAt(p);
  return c < 128 && ((f.plan.classes[c] as number) & WORD) !== 0;
}
