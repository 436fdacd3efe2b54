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
  /** Regular-expression source (combined with the others under the `u` and `i`-free flags). */
  pattern: string;
  /** Confirms a candidate; `match` is the whole matched text. */
  validate?: (match: string, text: string, index: number) => boolean;
  /** The format ignores case (`PASSWORD=`, `AWS_SECRET_ACCESS_KEY`); others are re-checked exactly. */
  ignoreCase?: boolean;
  /**
   * Generic assignments only: where the assigned value starts (after `=` or `:`). A value
   * that is itself a known credential is reported as that credential.
   */
  valueAfter?: RegExp;
  /** Injection only: how much one match counts toward the blocking threshold. */
  weight?: number;
}
