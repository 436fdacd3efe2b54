import { expect, test } from "bun:test";
import { isSameModel, normalizeModelId } from "../../src/pipeline/substitution.ts";

const SAME: [string, string][] = [
  ["gpt-4o", "gpt-4o"],
  ["gpt-4o", "gpt-4o-2024-08-06"],
  ["gpt-4o-2024-08-06", "gpt-4o-2024-08-06"],
  ["GPT-4o", "gpt-4o"],
  ["claude-sonnet-4-5", "claude-sonnet-4-5-20250929"],
  ["claude-3-7-sonnet-latest", "claude-3-7-sonnet-20250219"],
  ["claude-sonnet-4-0", "claude-sonnet-4-20250514"],
  ["anthropic.claude-sonnet-4-5-20250929-v1:0", "claude-sonnet-4-5-20250929"],
  ["anthropic.claude-3-5-haiku-20241022-v1:0", "anthropic.claude-3-5-haiku-20241022-v1:0"],
  ["us.anthropic.claude-3-5-sonnet-20241022-v2:0", "claude-3-5-sonnet-20241022"],
  ["llama3", "llama3:latest"],
  ["gemini-2.5-flash", "models/gemini-2.5-flash"],
  ["mock-model", "mock-model"],
  ["gpt-4o", ""],
];

const DIFFERENT: [string, string][] = [
  ["gpt-4o", "gpt-4o-mini"],
  ["gpt-4o-mini", "gpt-4o"],
  ["gpt-4", "gpt-4o"],
  ["claude-sonnet-4-5", "claude-haiku-4-5"],
  ["claude-opus-4-1", "claude-opus-4-0"],
  ["anthropic.claude-sonnet-4-5-20250929-v1:0", "claude-3-5-haiku-20241022"],
  ["llama3:70b", "llama3:8b"],
  ["gpt-4o", "gpt-3.5-turbo"],
  ["o3", "o3-mini"],
];

test("spellings of one model are the same model", () => {
  for (const [requested, answered] of SAME) expect([requested, answered, isSameModel(requested, answered)]).toEqual([requested, answered, true]);
});

test("another model is a substitution", () => {
  for (const [requested, answered] of DIFFERENT) expect([requested, answered, isSameModel(requested, answered)]).toEqual([requested, answered, false]);
});

test("normalization", () => {
  expect(normalizeModelId("anthropic.claude-3-5-haiku-20241022-v1:0")).toBe("claude-3-5-haiku");
  expect(normalizeModelId("gpt-4o-2024-08-06")).toBe("gpt-4o");
});
