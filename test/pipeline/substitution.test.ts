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
  // The platform's inference-profile prefixes: geographies and the named ones.
  ["eu.anthropic.claude-3-7-sonnet-20250219-v1:0", "claude-3-7-sonnet-20250219"],
  ["jp.anthropic.claude-sonnet-4-5-20250929-v1:0", "claude-sonnet-4-5"],
  ["apac.anthropic.claude-sonnet-4-20250514-v1:0", "claude-sonnet-4-20250514"],
  ["global.anthropic.claude-sonnet-4-5-20250929-v1:0", "claude-sonnet-4-5-20250929"],
  ["us-gov.anthropic.claude-3-5-sonnet-20240620-v1:0", "claude-3-5-sonnet-20240620"],
  ["APAC.anthropic.claude-3-5-haiku-20241022-v1:0", "anthropic.claude-3-5-haiku-20241022-v1:0"],
  ["claude-haiku-4-5", "global.anthropic.claude-haiku-4-5-20251001-v1:0"],
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
  // A known profile prefix does not hide another model.
  ["apac.anthropic.claude-sonnet-4-20250514-v1:0", "claude-3-5-haiku-20241022"],
  ["global.anthropic.claude-sonnet-4-5-20250929-v1:0", "global.anthropic.claude-haiku-4-5-20251001-v1:0"],
  ["us-gov.anthropic.claude-3-5-sonnet-20240620-v1:0", "claude-3-haiku-20240307"],
  // Only the platform's own prefixes are spellings: not regions, other namespaces or made-up words.
  ["claude-sonnet-4-5", "us-east-1.anthropic.claude-sonnet-4-5"],
  ["claude-sonnet-4-5", "meta.anthropic.claude-sonnet-4-5"],
  ["claude-sonnet-4-5", "usa.anthropic.claude-sonnet-4-5"],
  ["claude-sonnet-4-5", "global.claude-sonnet-4-5"],
  ["claude-sonnet-4-5", "apac.us.anthropic.claude-sonnet-4-5"],
  ["claude-sonnet-4-5", "us-gov-west.anthropic.claude-sonnet-4-5"],
];

test("spellings of one model are the same model", () => {
  for (const [requested, answered] of SAME)
    expect([requested, answered, isSameModel(requested, answered)]).toEqual([requested, answered, true]);
});

test("another model is a substitution", () => {
  for (const [requested, answered] of DIFFERENT)
    expect([requested, answered, isSameModel(requested, answered)]).toEqual([requested, answered, false]);
});

test("normalization", () => {
  expect(normalizeModelId("anthropic.claude-3-5-haiku-20241022-v1:0")).toBe("claude-3-5-haiku");
  expect(normalizeModelId("gpt-4o-2024-08-06")).toBe("gpt-4o");
  for (const prefix of ["us.", "eu.", "apac.", "global.", "us-gov.", ""])
    expect(normalizeModelId(`${prefix}anthropic.claude-sonnet-4-20250514-v1:0`)).toBe("claude-sonnet-4");
  expect(normalizeModelId("us-east-1.anthropic.claude-sonnet-4-20250514-v1:0")).toBe("us-east-1.anthropic.claude-sonnet-4");
});
