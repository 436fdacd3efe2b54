/** What a chat request needs from a model, and whether it fits a context window without running the tokenizer every time. */
import { expect, test } from "bun:test";
import { chatNeeds, fitsWindow } from "../../src/routing/needs.ts";

test("tools, images and JSON mode are read from the body", () => {
  const n = chatNeeds({
    messages: [{ content: [{ type: "image_url" }] }],
    tools: [{}],
    response_format: { type: "json_schema" },
    max_completion_tokens: 7,
  });
  expect([n.tools, n.vision, n.json, n.maxTokens]).toEqual([true, true, true, 7]);
  expect(chatNeeds({ messages: [{ content: "hi" }] })).toMatchObject({ tools: false, vision: false, json: false, maxTokens: null });
});

test("fit is checked on the byte bound first; only a prompt whose bound overflows is counted, once", () => {
  let counted = 0;
  const needs = {
    tools: false,
    vision: false,
    json: false,
    promptTokens: 250,
    promptTokenBound: 1000,
    exactPromptTokens: () => (counted++, 300),
    maxTokens: 100,
  };
  expect(fitsWindow(needs, 2000)).toBe(true);
  expect(counted).toBe(0);
  expect(fitsWindow(needs, 500)).toBe(true); // the bound overflows, the real count fits
  expect(fitsWindow(needs, 350)).toBe(false);
  const real = chatNeeds({ messages: [{ content: "word ".repeat(400) }], max_tokens: 10 });
  expect(real.promptTokenBound!).toBeGreaterThanOrEqual(real.exactPromptTokens!());
  expect(real.exactPromptTokens!()).toBe(real.exactPromptTokens!());
});
