/** The injection rule tests' three lists, judged by the rules alone (the classifier off): what blocks, what flags, what stays under the flag level. */
import { describe, expect, test } from "bun:test";
import { scanText } from "../../../src/pipeline/scan/engine.ts";

const rules = (text: string) => scanText(text, { injection: true, model: null }).injectionScore;

export function describeRuleVerdicts(title: string, lists: { blocked: string[]; flagged: string[]; ordinary: string[] }): void {
  describe(title, () => {
    test.each(lists.blocked.map((t) => [t]))("%s blocks", (text) => {
      expect(rules(text)).toBeGreaterThanOrEqual(1);
    });

    test.each(lists.flagged.map((t) => [t]))("%s flags", (text) => {
      expect(rules(text)).toBeGreaterThanOrEqual(0.5);
    });

    test.each(lists.ordinary.map((t) => [t]))("%s stays under the flag level", (text) => {
      expect(rules(text)).toBeLessThan(0.5);
    });
  });
}
