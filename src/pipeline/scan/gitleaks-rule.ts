/**
 * One vendor credential rule derived from gitleaks' rule set by
 * scanner/generate-secret-rules.ts (the table is gitleaks-rules.ts).
 */
export interface GeneratedRule {
  /** gitleaks' rule id (`gitlab-pat`). */
  id: string;
  /** JavaScript pattern source, translated from Go's. */
  pattern: string;
  /** The literals a match begins with (after `\b`), one per alternative: where a match can start. */
  prefixes: string[];
  /** Whether the pattern opens with `\b` (its literals open with a letter or digit). */
  atWord: boolean;
  /** The pattern ignores case (gitleaks' leading `(?i)`); then so does its prefix. */
  ignoreCase: boolean;
  /** gitleaks' Shannon-entropy threshold for the secret, 0 when it gives none. */
  entropy: number;
}
