/** What a chat call holds against a spend cap, read from its body (`chatSize`). */
import { expect, test } from "bun:test";
import { chatSize } from "../../src/pipeline/chat-call.ts";
import type { ChatCompletionRequest } from "../../src/schemas/chat-completions.ts";

const asked = (extra: Partial<ChatCompletionRequest>): ChatCompletionRequest => ({
  model: "gpt-4o",
  messages: [{ role: "user", content: "hi" }],
  ...extra,
});

test("both limit names given: the larger is held, since the provider's kind decides which one it reads", () => {
  // An OpenAI provider is sent max_completion_tokens (openai-adapter.ts): holding max_tokens' 10 would let 100,000 through.
  expect(chatSize(asked({ max_tokens: 10, max_completion_tokens: 100_000 })).maxTokens).toBe(100_000);
  expect(chatSize(asked({ max_tokens: 100_000, max_completion_tokens: 10 })).maxTokens).toBe(100_000);
  expect(chatSize(asked({ max_completion_tokens: 64 })).maxTokens).toBe(64);
  expect(chatSize(asked({})).maxTokens).toBeUndefined();
});

test("n choices are held as that many answers; one when n is absent or 1", () => {
  expect(chatSize(asked({ n: 4, max_tokens: 8 }))).toMatchObject({ maxTokens: 8, choices: 4 });
  expect(chatSize(asked({ n: 1 })).choices).toBe(1);
  expect(chatSize(asked({})).choices).toBe(1);
});
