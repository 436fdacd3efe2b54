/**
 * A detector: one pattern, the category it belongs to, and an optional validator
 * that confirms a candidate match (checksums, entropy, placeholders). Patterns must
 * stay linear: no nested or overlapping quantifiers, bounded repetition only.
 */
export type Category = "secret" | "injection" | "pii";

export interface Detector {
  /** A stable name, used for redaction placeholders and in messages (never a value). */
  kind: string;
  category: Category;
  /** Regular-expression source, combined with the others (see engine.ts); case-folding detectors are lower-cased there. */
  pattern: string;
  /** Confirms a candidate; `match` is the whole matched text. */
  validate?: (match: string, text: string, index: number) => boolean;
  /** The format ignores case (`PASSWORD=`, `AWS_SECRET_ACCESS_KEY`); others are re-checked exactly. */
  ignoreCase?: boolean;
  /**
   * Generic assignments only: where the assigned value starts (after `=` or `:`). A
   * rejected assignment resumes the scan there, since the value may begin another one.
   */
  valueAfter?: RegExp;
  /** Injection only: how much one match counts toward the blocking threshold. */
  weight?: number;
}
