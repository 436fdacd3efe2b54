/**
 * What a Responses call keeps when a chat provider answers it, through the official openai
 * client: `reasoning.effort` reaches a provider kind whose chat API documents
 * `reasoning_effort` and is dropped for one that does not, and Google's thought signature
 * on a tool call comes back on the next turn's call, whole or streamed, so a tool loop at
 * Google's OpenAI-compatible endpoint is not refused on its second turn.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import OpenAI from "openai";
import type { ResponseInputItem, ResponseOutputItem } from "openai/resources/responses/responses";
import { mockSignatureFor, THOUGHT_SIGNATURE_USER } from "../../src/mock-provider/thought-signature-steer.ts";
import { stackPerFile } from "../support/stack.ts";
import { RESPONSES_WEATHER_TOOL } from "../support/weather-tool.ts";

let openai: OpenAI;

const stack = stackPerFile();

beforeAll(async () => {
  for (const provider of ["google", "cohere"])
    await stack.gw.op(stack.org.apiKey, "provider.create", {
      provider,
      apiKey: `sk-${provider}-test-123456`,
      baseUrl: `${stack.mock.url}/v1`,
      scope: "organization",
    });
  openai = new OpenAI({ baseURL: `${stack.gw.url}/v1`, apiKey: stack.org.apiKey, maxRetries: 0 });
});

const weather = RESPONSES_WEATHER_TOOL;
const lastChatBody = async () =>
  (await stack.mock.requests()).filter((r) => r.path.endsWith("/chat/completions")).at(-1)!.body as Record<string, any>;

describe("reasoning.effort", () => {
  test("reaches a provider whose chat API documents reasoning_effort (Google) as reasoning_effort", async () => {
    const r = await openai.responses.create({ model: "gemini-2.5-flash", input: "Prove it.", reasoning: { effort: "low" } });
    expect(r.status).toBe("completed");
    const sent = await lastChatBody();
    expect(sent.model).toBe("gemini-2.5-flash");
    expect(sent.reasoning_effort).toBe("low");
  });

  test("is dropped, not sent, for one whose chat API does not (Cohere), and the call is answered", async () => {
    const r = await openai.responses.create({ model: "command-r-08-2024", input: "Prove it.", reasoning: { effort: "high" } });
    expect(r.status).toBe("completed");
    const sent = await lastChatBody();
    expect(sent.model).toBe("command-r-08-2024");
    expect(sent).not.toHaveProperty("reasoning_effort");
    expect(sent).not.toHaveProperty("reasoning");
  });
});

/** The second turn of a tool loop as the official client's users write it: the first answer's output, then the result. */
function nextTurn(output: ResponseOutputItem[]): ResponseInputItem[] {
  const call = output.find((o) => o.type === "function_call");
  if (call?.type !== "function_call") throw new Error("no function call in the first answer");
  return [
    { role: "user", content: "Weather in Paris?" },
    ...(output as ResponseInputItem[]),
    { type: "function_call_output", call_id: call.call_id, output: "sunny, 21 C" },
  ];
}

describe("Google's thought signature", () => {
  test("on a whole answer's tool call comes back on the next turn's call, and the tool loop goes on", async () => {
    const ask = { model: "gemini-2.5-flash", tools: [weather], user: THOUGHT_SIGNATURE_USER };
    const first = await openai.responses.create({ ...ask, input: "Weather in Paris?" });
    const call = first.output.find((o) => o.type === "function_call");
    if (call?.type !== "function_call") throw new Error("no function call");
    expect(call.call_id).toMatch(/^call_/);
    // The signature travels as OpenAI's own reasoning state does: an opaque reasoning item before the call.
    const carrier = first.output[first.output.indexOf(call) - 1];
    // (Checked field by field: an asymmetric matcher in toMatchObject would be written into the item.)
    expect(carrier?.type).toBe("reasoning");
    expect(typeof (carrier as { encrypted_content?: unknown }).encrypted_content).toBe("string");
    expect(JSON.stringify(carrier)).not.toContain(mockSignatureFor(call.call_id));
    const second = await openai.responses.create({ ...ask, input: nextTurn(first.output) });
    expect(second.status).toBe("completed");
    const sent = await lastChatBody();
    const back = sent.messages.find((m: any) => m.role === "assistant").tool_calls[0];
    expect(back.id).toBe(call.call_id);
    expect(back.extra_content).toEqual({ google: { thought_signature: mockSignatureFor(call.call_id) } });
  });

  test("on a streamed tool call comes back too", async () => {
    const ask = { model: "gemini-2.5-flash", tools: [weather], user: THOUGHT_SIGNATURE_USER };
    const stream = await openai.responses.create({ ...ask, input: "Weather in Paris?", stream: true });
    let output: ResponseOutputItem[] = [];
    const done: ResponseOutputItem[] = [];
    for await (const event of stream) {
      if (event.type === "response.output_item.done") done[event.output_index] = event.item;
      if (event.type === "response.completed") output = event.response.output;
    }
    const call = output.find((o) => o.type === "function_call");
    if (call?.type !== "function_call") throw new Error("no function call");
    // The items as each was finished are the completed response's: a client may keep either.
    expect(done).toEqual(output);
    expect(output.map((o) => o.type)).toEqual(["reasoning", "function_call"]);
    const second = await openai.responses.create({ ...ask, input: nextTurn(output) });
    expect(second.status).toBe("completed");
    const back = (await lastChatBody()).messages.find((m: any) => m.role === "assistant").tool_calls[0];
    expect(back.extra_content).toEqual({ google: { thought_signature: mockSignatureFor(call.call_id) } });
  });

  test("a tool call sent back without its reasoning item is refused by the provider, as Google refuses it (the steer can fail)", async () => {
    const ask = { model: "gemini-2.5-flash", tools: [weather], user: THOUGHT_SIGNATURE_USER };
    const first = await openai.responses.create({ ...ask, input: "Weather in Paris?" });
    const stripped = nextTurn(first.output).filter((item) => item.type !== "reasoning");
    const err = await openai.responses.create({ ...ask, input: stripped }).catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect(err.status).toBe(400);
  });
});
