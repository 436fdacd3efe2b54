/** The mock refuses `max_tokens` for a reasoning model, as OpenAI and Azure do, and takes it for the others. */
import { expect, test } from "bun:test";
import { reasoningLimitRefusal } from "../../src/mock-provider/reasoning-limits.ts";

test("a reasoning model named in the body, or as a word of an Azure deployment, is refused max_tokens", async () => {
  for (const [path, model] of [
    ["/v1/chat/completions", "o3"],
    ["/v1/chat/completions", "gpt-5-mini"],
    ["/openai/deployments/prod-o4-mini/chat/completions", "anything"],
  ] as const) {
    const res = reasoningLimitRefusal(path, { model, max_tokens: 10 });
    expect(res?.status).toBe(400);
    expect(((await res!.json()) as { error: unknown }).error).toMatchObject({
      type: "invalid_request_error",
      param: "max_tokens",
      code: "unsupported_parameter",
    });
  }
});

test("max_completion_tokens, or another model, passes", () => {
  expect(reasoningLimitRefusal("/v1/chat/completions", { model: "o3", max_completion_tokens: 10 })).toBeNull();
  expect(reasoningLimitRefusal("/v1/chat/completions", { model: "gpt-4o", max_tokens: 10 })).toBeNull();
  expect(reasoningLimitRefusal("/openai/deployments/prod-4o/chat/completions", { model: "o3", max_tokens: 10 })).toBeNull();
});
