import { expect, test } from "bun:test";
import { estimatePromptTokens } from "../../src/lib/token-estimate.ts";

test("counts text with the tokenizer, plus message framing and images", () => {
  const one = estimatePromptTokens([{ role: "user", content: "Hello, world! How are you doing today?" }]);
  expect(one).toBe(3 + 4 + 10);
  const parts = estimatePromptTokens([{ role: "user", content: [{ type: "text", text: "Hello, world! How are you doing today?" }, { type: "image_url", image_url: { url: "data:..." } }] }]);
  expect(parts).toBe(one + 85);
  expect(estimatePromptTokens([])).toBe(3);
});
