/** The platform's answers name the vendor's model id, without the decorations of the id the call was addressed to. */
import { expect, test } from "bun:test";
import { platformAnswerModel } from "../../src/mock-provider/platform-model.ts";

test("the profile prefix, the namespace and the version suffix are the platform's, not the model's name", () => {
  expect(platformAnswerModel("anthropic.claude-3-5-sonnet-20240620-v1:0")).toBe("claude-3-5-sonnet-20240620");
  expect(platformAnswerModel("us.anthropic.claude-sonnet-4-5-20250929-v1:0")).toBe("claude-sonnet-4-5-20250929");
  expect(platformAnswerModel("global.anthropic.claude-haiku-4-5-20251001-v1:0")).toBe("claude-haiku-4-5-20251001");
  expect(platformAnswerModel("us-gov.anthropic.claude-3-haiku-20240307-v1")).toBe("claude-3-haiku-20240307");
  // A steering word stays as it was given, so tests can still steer.
  expect(platformAnswerModel("anthropic.swap-claude-x")).toBe("swap-claude-x");
});
