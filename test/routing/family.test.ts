/** The family rule: only a trailing `*` asks to be routed within a family; a concrete id never is. */
import { expect, test } from "bun:test";
import { familyOf, inFamily } from "../../src/routing/family.ts";

test("a name ending with * is a family; its prefix is what the models start with", () => {
  expect(familyOf("gpt-4o*")).toBe("gpt-4o");
  expect(familyOf("claude-sonnet*")).toBe("claude-sonnet");
  expect(familyOf("meta-llama/Llama-3*")).toBe("meta-llama/Llama-3");
});

test("a concrete model id, gateway/auto, * alone and a * inside are not families", () => {
  for (const name of ["gpt-4o", "gpt-4o-mini", "gateway/auto", "*", "gpt-*o*", "a*b"]) expect(familyOf(name)).toBeNull();
});

test("a family holds the models whose id starts with its prefix", () => {
  const gpt4o = inFamily("gpt-4o");
  expect(["gpt-4o", "gpt-4o-mini", "gpt-4.1", "o1", "chatgpt-4o"].filter(gpt4o)).toEqual(["gpt-4o", "gpt-4o-mini"]);
});
