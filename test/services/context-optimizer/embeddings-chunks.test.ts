import { expect, test } from "bun:test";
import { countTextTokens } from "../../../src/lib/token-estimate.ts";
import { chunkEmbeddingInput } from "../../../src/services/context-optimizer/embeddings-chunks.ts";

const para = (n: number) => `Paragraph ${n} describes the warehouse stock levels for the second quarter.`;
const long = Array.from({ length: 12 }, (_, i) => para(i)).join("\n\n");

test("a text over the limit becomes chunks in its place; the others stay one input each", () => {
  const r = chunkEmbeddingInput(["short one", long, "short two"], 60)!;
  expect(r.chunked).toBe(true);
  const input = r.input as string[];
  expect(input[0]).toBe("short one");
  expect(input.at(-1)).toBe("short two");
  expect(r.chunksPerInput[0]).toBe(1);
  expect(r.chunksPerInput[2]).toBe(1);
  expect(r.chunksPerInput[1]).toBeGreaterThan(1);
  expect(input).toHaveLength(r.chunksPerInput.reduce((a, b) => a + b, 0));
  const chunks = input.slice(1, -1);
  for (const c of chunks) expect(countTextTokens(c)).toBeLessThanOrEqual(60);
  expect(chunks.join("\n\n")).toBe(long);
  expect(r.originalTokens).toBe(countTextTokens("short one") + countTextTokens(long) + countTextTokens("short two"));
  expect(r.optimizedTokens).toBe(input.reduce((n, t) => n + countTextTokens(t), 0));
});

test("a single string over the limit becomes an array of chunks", () => {
  const r = chunkEmbeddingInput(long, 60)!;
  expect(Array.isArray(r.input)).toBe(true);
  expect(r.chunksPerInput).toEqual([(r.input as string[]).length]);
});

test("everything within the limit: the input itself, not chunked", () => {
  const input = ["a", "b"];
  const r = chunkEmbeddingInput(input, 60)!;
  expect(r).toMatchObject({ chunked: false, chunksPerInput: [1, 1] });
  expect(r.input).toBe(input);
});

test("token arrays are the caller's own tokenization: left alone", () => {
  expect(chunkEmbeddingInput([1, 2, 3], 2)).toBeNull();
  expect(chunkEmbeddingInput([[1, 2, 3]], 2)).toBeNull();
});

test("a text of blank lines over the limit is still one input: no input leaves the answer without its embedding", () => {
  const blank = " \n".repeat(2_000);
  expect(countTextTokens(blank)).toBeGreaterThan(60);
  const r = chunkEmbeddingInput(["a", blank, "b"], 60)!;
  expect(r.chunksPerInput).toEqual([1, 1, 1]);
  const sent = r.input as string[];
  expect(sent).toHaveLength(3);
  expect(countTextTokens(sent[1]!)).toBeLessThanOrEqual(60);
  expect(sent[1]!.length).toBeGreaterThan(0);
});
