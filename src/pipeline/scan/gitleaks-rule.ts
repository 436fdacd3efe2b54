/**
 * One vendor credential rule derived from gitleaks' rule set by
 * scanner/generate-secret-rules.ts (the table is gitleaks-rules.ts).
 */
export interface GeneratedRule {
  /** gitleaks' rule id (`gitlab-pat`). */
  id: string;
  /** JavaScript pattern source, translated from Go's. */
  pattern: string;
  /** The literal every match begins with (after an optional `\b`): where a match can start. */
  prefix: string;
  /** Whether the pattern opens with `\b`. */
  atWord: boolean;
  /** The pattern ignores case (gitleaks' leading `(?i)`); then so does its prefix. */
  ignoreCase: boolean;
  /** gitleaks' Shannon-entropy threshold for the secret, 0 when it gives none. */
  entropy: number;
}
