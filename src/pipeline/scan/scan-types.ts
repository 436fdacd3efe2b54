/** The scanner's results and options, apart from the engine so the second readings (reveals.ts) can name them. */
import type { InjectionConfidence, LinearModel } from "./classifier.ts";
import type { Category } from "./detector.ts";

export interface Finding {
  category: Category;
  kind: string;
  start: number;
  end: number;
}

export interface TextScan {
  findings: Finding[];
  /** Sum of injection weights after discounts; at or above INJECTION_THRESHOLD it blocks. */
  injectionScore: number;
  /**
   * How sure the scanner is that the text is an injection: "high" (the score reached
   * INJECTION_THRESHOLD: blocked), "medium" (the classifier's flag threshold, or the
   * rules part of the way: forwarded and flagged, never blocked by default), null (neither).
   */
  injectionConfidence: InjectionConfidence;
}

/** At or above this injection score a text is blocked. */
export const INJECTION_THRESHOLD = 1.0;

export interface ScanOptions {
  /** Injection is judged in caller-controlled text only (not in the owner's system prompt). */
  injection: boolean;
  /** Nesting depth for decoded content. */
  depth?: number;
  /** The trained classifier to judge injection with besides the rules; null for the rules alone (evaluation). */
  model?: LinearModel | null;
  /** Where phone numbers written without `+` are read as national ones (ISO 3166 alpha-2); `US` when not given. */
  phoneRegion?: string;
}
