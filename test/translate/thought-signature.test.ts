/** Google's thought signature out to a Responses caller in the gateway's reasoning item, and back onto its chat tool call. */
import { describe, expect, test } from "bun:test";
import { chatCompletionToResponse } from "../../src/translate/chat-to-responses.ts";
import { responsesToChatRequest } from "../../src/translate/responses-to-chat.ts";
import { signatureItem, signaturesIn, thoughtSignatureOf } from "../../src/translate/thought-signature.ts";

const LONG = `CiQB+/=${"s".repeat(2000)}`;
const answer = (extra: Record<string, unknown>) =>
  ({
    id: "chatcmpl-abc",
    choices: [
      {
        message: {
          content: null,
          tool_calls: [
            { id: "call_1", type: "function", function: { name: "f", arguments: "{}" }, ...extra },
            { id: "call_2", type: "function", function: { name: "g", arguments: "{}" } },
          ],
        },
        finish_reason: "tool_calls",
      },
    ],
  }) as never;

describe("out: a signed tool call", () => {
  test("gets a reasoning item before it, its signature sealed in encrypted_content; an unsigned one gets none", () => {
    const r = chatCompletionToResponse(answer({ extra_content: { google: { thought_signature: LONG } } }), { model: "m" } as never);
    const output = r.output as Record<string, unknown>[];
    expect(output.map((o) => o.type)).toEqual(["reasoning", "function_call", "function_call"]);
    expect(output[0]).toMatchObject({ id: "rs_abc_0", summary: [] });
    expect(output[0]?.encrypted_content).not.toContain(LONG);
    expect(signaturesIn(output)).toEqual(new Map([["call_1", LONG]]));
  });

  test("an answer without signatures is as before: no reasoning item", () => {
    const r = chatCompletionToResponse(answer({}), { model: "m" } as never);
    expect((r.output as { type: string }[]).map((o) => o.type)).toEqual(["function_call", "function_call"]);
  });
});

describe("back: the next turn", () => {
  test("puts the signature on its own call, as Google takes it, whatever the items' order", () => {
    const r = chatCompletionToResponse(answer({ extra_content: { google: { thought_signature: LONG } } }), { model: "m" } as never);
    const output = r.output as Record<string, unknown>[];
    const input = [
      { role: "user", content: "go" },
      output[1],
      output[2],
      output[0],
      { type: "function_call_output", call_id: "call_1", output: "ok" },
    ];
    const messages = responsesToChatRequest({ model: "m", input }).messages as { tool_calls?: Record<string, unknown>[] }[];
    const calls = messages.find((m) => m.tool_calls)?.tool_calls ?? [];
    expect(calls.map((c) => thoughtSignatureOf(c))).toEqual([LONG, null]);
    expect(calls[0]?.extra_content).toEqual({ google: { thought_signature: LONG } });
  });

  test("another provider's reasoning item, or a malformed one of the gateway's, carries no signature", () => {
    const sealed = signatureItem("rs_x", "call_1", "S").encrypted_content as string;
    expect(signaturesIn([{ type: "reasoning", encrypted_content: "gAAAAB-openai-state" }])).toEqual(new Map());
    expect(signaturesIn([{ type: "reasoning", encrypted_content: `${sealed.slice(0, 40)}!!` }])).toEqual(new Map());
    expect(signaturesIn([{ type: "message", encrypted_content: sealed }])).toEqual(new Map());
    expect(signaturesIn("text input")).toEqual(new Map());
  });
});
