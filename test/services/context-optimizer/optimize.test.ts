import { expect, spyOn, test } from "bun:test";
import * as tokenEstimate from "../../../src/lib/token-estimate.ts";
import { countTextTokens } from "../../../src/lib/token-estimate.ts";
import { chunkText } from "../../../src/services/context-optimizer/chunk.ts";
import { dedupeMessages, optimizeText } from "../../../src/services/context-optimizer/optimize.ts";

const para = (n: number) => `Paragraph ${n} explains the quarterly figures in some detail for the reader.`;

test("a document with known duplicates: the repeats go, the figures add up", () => {
  const doc = [para(1), para(2), para(1), para(3), para(2)].join("\n\n");
  const r = optimizeText(doc);
  expect(r.text).toBe([para(1), para(2), para(3)].join("\n\n"));
  expect(r.transformations).toContain("deduplication");
  expect(r.originalTokens).toBe(countTextTokens(doc));
  expect(r.optimizedTokens).toBe(countTextTokens(r.text));
  expect(r.optimizedTokens).toBeLessThan(r.originalTokens * 0.7);
});

test("normalization: NFC, trailing and repeated spaces, CRLF", () => {
  const r = optimizeText("Cafe\u0301  is   open.   \r\nYes.");
  expect(r.text).toBe("Caf\u00e9 is open.\nYes.");
  expect(r.transformations).toEqual(["normalization"]);
});

test("compression: blank runs collapse, recurring boilerplate is kept once", () => {
  const footer = "CONFIDENTIAL - internal use only - do not forward";
  const r = optimizeText(`A.\n\n\n\n\nB.\n${footer}\nC.\n${footer}`);
  expect(r.text).toBe(`A.\n\nB.\n${footer}\nC.`);
  expect(r.transformations).toContain("compression");
});

test("code blocks and quoted data are never touched", () => {
  const code = "```py\nx  =  1\n\n\n\nx  =  1\n```";
  const quote = "> same   line\n> same   line";
  const doc = `Intro.\n${code}\n${quote}\nIntro.`;
  const r = optimizeText(doc);
  expect(r.text).toContain(code);
  expect(r.text).toContain(quote);
});

test("a repeat dropped beside a code block keeps the blank lines that separate them", () => {
  const code = "```\nrun()\n```";
  const doc = [para(1), para(2), para(1), code, para(2), "The end."].join("\n\n");
  expect(optimizeText(doc).text).toBe([para(1), para(2), code, "The end."].join("\n\n"));
  // Every paragraph between two blocks a repeat: one empty line stays between them.
  expect(optimizeText([para(1), code, para(1), code].join("\n\n")).text).toBe([para(1), code, code].join("\n\n"));
});

test("a repeat after a blank run leaves no trailing blank lines", () => {
  expect(optimizeText("Be brief.\n\n\n\nBe brief.").text).toBe("Be brief.");
});

test("a clean document is left alone", () => {
  const r = optimizeText("Nothing to do here.");
  expect(r).toMatchObject({ text: "Nothing to do here.", transformations: [], chunks: null });
});

test("chunking: every chunk within the limit, nothing lost", () => {
  const doc = Array.from({ length: 40 }, (_, i) => para(i)).join("\n\n");
  const chunks = chunkText(doc, 50);
  expect(chunks.length).toBeGreaterThan(5);
  for (const c of chunks) expect(countTextTokens(c)).toBeLessThanOrEqual(50);
  expect(chunks.join("\n\n")).toBe(doc);
  const r = optimizeText(doc, { maxChunkTokens: 50 });
  expect(r.transformations).toContain("chunking");
  expect(r.chunks).toEqual(chunks);
  expect(chunkText("x".repeat(30), 10).every((c) => countTextTokens(c) <= 10)).toBe(true);
});

test("repeated messages are dropped, the first kept", () => {
  const m = [
    { role: "user", content: "hi" },
    { role: "assistant", content: "hi" },
    { role: "user", content: "hi" },
    { role: "user", content: "go on" },
  ];
  expect(dedupeMessages(m)).toEqual([m[0]!, m[1]!, m[3]!]);
});

test("the last message is kept even when it repeats an earlier one: it is what the model answers", () => {
  const m = [
    { role: "user", content: "hi" },
    { role: "assistant", content: "hello" },
    { role: "user", content: "hi" },
  ];
  expect(dedupeMessages(m)).toEqual(m);
});

test("tool results and tool-calling turns are never dropped: their ids tie them to a call", () => {
  const m = [
    { role: "assistant", content: "", tool_calls: [{ id: "a" }] },
    { role: "tool", tool_call_id: "a", content: "42" },
    { role: "assistant", content: "", tool_calls: [{ id: "b" }] },
    { role: "tool", tool_call_id: "b", content: "42" },
    { role: "user", content: "thanks" },
  ];
  expect(dedupeMessages(m)).toEqual(m);
});

test("the last user turn is never dropped, even when the request ends on a tool result or a prefill after it", () => {
  // An agent loop: the user says "continue" again, the model calls a tool, the request ends on its result.
  const agent = [
    { role: "user", content: "continue" },
    { role: "assistant", content: "Step one is done." },
    { role: "user", content: "continue" },
    { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "run", arguments: "{}" } }] },
    { role: "tool", tool_call_id: "c1", content: "ok" },
  ];
  expect(dedupeMessages(agent)).toEqual(agent);
  const prefill = [
    { role: "user", content: "hi" },
    { role: "assistant", content: "hello" },
    { role: "user", content: "hi" },
    { role: "assistant", content: "Well," },
  ];
  expect(dedupeMessages(prefill)).toEqual(prefill);
});

test("a repeat is not dropped where that would join two turns of another role: the conversation's turns stay as they were", () => {
  const m = [
    { role: "user", content: "go on" },
    { role: "assistant", content: "First part." },
    { role: "user", content: "go on" },
    { role: "assistant", content: "Second part." },
    { role: "user", content: "Summarize." },
  ];
  expect(dedupeMessages(m)).toEqual(m);
  // A turn sent twice in a row is still dropped.
  const twice = [
    { role: "system", content: "Be brief." },
    { role: "system", content: "Be brief." },
    { role: "user", content: "Hi" },
  ];
  expect(dedupeMessages(twice)).toEqual([twice[0]!, twice[2]!]);
});

test("chunking counts each piece about once: many short sentences in one paragraph are not recounted as the chunk grows", () => {
  const doc = "Go now. ".repeat(5_000).trim();
  const spy = spyOn(tokenEstimate, "countTextTokens");
  let chunks: string[] = [];
  let read = 0;
  try {
    chunks = chunkText(doc, 2_000);
    // Every character the tokenizer read: linear in the text (recounting the chunk at each sentence read it 100 times over).
    read = spy.mock.calls.reduce((n, [text]) => n + (text as string).length, 0);
  } finally {
    spy.mockRestore();
  }
  expect(read).toBeLessThan(4 * doc.length);
  for (const c of chunks) expect(countTextTokens(c)).toBeLessThanOrEqual(2_000);
  expect(chunks.join(" ").replaceAll("\n\n", " ")).toBe(doc);
});

test("chunks stay within the limit whatever the text: prose, code-like punctuation, digits, CJK, emoji", () => {
  const samples = [
    "Wait... what?! Really?? Yes. ".repeat(300),
    "x = f(a, b);\n\ny = g(c) // note.\n\n".repeat(200),
    "12345 67890. 3.14159! ".repeat(300),
    "東京は晴れです。明日は雨でしょう。".repeat(200),
    "Nice 👍🏽 work! 🎉🎉 ".repeat(300),
    "a".repeat(5_000),
  ];
  for (const text of samples)
    for (const limit of [7, 50, 333]) {
      const chunks = chunkText(text, limit);
      expect(chunks.length).toBeGreaterThan(0);
      for (const c of chunks) expect({ limit, tokens: countTextTokens(c) <= limit }).toEqual({ limit, tokens: true });
    }
});
