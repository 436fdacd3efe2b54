/** The simulator's chat answers stay bounded whatever `n`, `logprobs` and the quoted tool results ask of them. */
import { expect, test } from "bun:test";
import { MAX_ANSWER_PIECES, simulatedChatCompletion } from "../../src/simulator/openai-format.ts";
import { sseJson } from "../support/sse-text.ts";

/** A conversation whose answer quotes `count` tool results of about 50 words each: an answer that grows with the request. */
function toolResults(count: number) {
  const calls = Array.from({ length: count }, (_, i) => ({
    id: `call_${i}`,
    type: "function",
    function: { name: "lookup", arguments: "{}" },
  }));
  const text = Array.from({ length: 60 }, (_, i) => `word${i}`).join(" ");
  return [
    { role: "user", content: "look everything up" },
    { role: "assistant", content: null, tool_calls: calls },
    ...calls.map((c) => ({ role: "tool", tool_call_id: c.id, content: text })),
  ];
}

interface Choice {
  index: number;
  message: { content: string };
  finish_reason: string;
  logprobs: { content: unknown[] } | null;
}

test("every choice of a long answer is cut to its share of the bound, and says so", async () => {
  const n = 8;
  const res = await simulatedChatCompletion({ model: "gpt-4o-mini", messages: toolResults(400), n } as never);
  const body = (await res.json()) as { choices: Choice[]; usage: { completion_tokens: number } };
  expect(body.choices).toHaveLength(n);
  for (const c of body.choices) {
    expect(c.message.content.split(" ").length).toBeLessThanOrEqual(MAX_ANSWER_PIECES / n);
    expect(c.finish_reason).toBe("length");
  }
  expect(body.usage.completion_tokens).toBeLessThanOrEqual(MAX_ANSWER_PIECES);
});

test("logprobs of a long answer: one entry a kept piece, never more than the bound", async () => {
  const res = await simulatedChatCompletion({
    model: "gpt-4o-mini",
    messages: toolResults(400),
    n: 2,
    logprobs: true,
    top_logprobs: 20,
  } as never);
  const body = (await res.json()) as { choices: Choice[] };
  for (const c of body.choices) {
    expect(c.logprobs?.content.length).toBe(c.message.content.split(" ").length);
    expect(c.logprobs?.content.length).toBeLessThanOrEqual(MAX_ANSWER_PIECES / 2);
  }
});

test("a stream of n choices carries no more pieces than the bound", async () => {
  const n = 16;
  const res = await simulatedChatCompletion({ model: "gpt-4o-mini", messages: toolResults(400), n, stream: true } as never);
  let pieces = 0;
  for (const chunk of sseJson(await res.text()) as { choices: { delta: { content?: string } }[] }[])
    for (const c of chunk.choices) if (c.delta.content) pieces++;
  expect(pieces).toBeGreaterThan(0);
  expect(pieces).toBeLessThanOrEqual(MAX_ANSWER_PIECES);
});

test("a limit below the share is kept as asked", async () => {
  const res = await simulatedChatCompletion({ model: "gpt-4o-mini", messages: toolResults(400), n: 4, max_tokens: 7 } as never);
  const body = (await res.json()) as { choices: Choice[] };
  for (const c of body.choices) expect(c.message.content.split(" ")).toHaveLength(7);
});
