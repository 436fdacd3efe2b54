/**
 * One vendor credential rule derived from gitleaks' rule set by
 * scanner/generate-secret-rules.ts (the table is gitleaks-rules.ts).
 */
export interface GeneratedRule {
  /** gitleaks' rule id (`gitlab-pat`). */
  id: string;
  /** JavaScript pattern source, translated from Go's, every group non-capturing. */
  pattern: string;
  /** The same with gitleaks' capturing groups: the first that took part is the secret (the whole match when none). */
  secret: string;
  /** The literals a match begins with (after `\b`), one per way it opens: where a match can start. Empty for a gated rule. */
  prefixes: string[];
  /** Whether the pattern opens with `\b` (its literals open with a letter or digit). */
  atWord: boolean;
  /**
   * A rule that opens with no literal is searched through a whole text holding one of
   * these keywords (gitleaks' prefilter, lower case): where a word begins when a
   * keyword is all word characters, anywhere otherwise. Empty for a rule tried where its prefix stands.
   */
  keywords: string[];
  /** The pattern ignores case (gitleaks' leading `(?i)`); then so does its prefix. */
  ignoreCase: boolean;
  /** gitleaks' Shannon-entropy threshold for the secret, 0 when it gives none. */
  entropy: number;
  /** gitleaks' `secretGroup`: the capturing group that holds the secret, when the rule names one (else the first that took part). */
  secretGroup?: number;
}
