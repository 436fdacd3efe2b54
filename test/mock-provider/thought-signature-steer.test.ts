/** The mock's thought-signature steer: signatures on the tool calls it answers, a 400 for an earlier call sent back without its own. */
import { describe, expect, test } from "bun:test";
import {
  missingSignature,
  mockSignatureFor,
  thoughtSignatureSteer,
  withThoughtSignatures,
} from "../../src/mock-provider/thought-signature-steer.ts";
import { sseJson } from "../support/sse-text.ts";

const call = (id: string, extra?: object) => ({ id, type: "function", function: { name: "f", arguments: "{}" }, ...extra });
const signed = (id: string) => call(id, { extra_content: { google: { thought_signature: mockSignatureFor(id) } } });

describe("thought-signature steer", () => {
  test("steered by the end user only", () => {
    expect(thoughtSignatureSteer({ user: "thought-signature" })).toBe(true);
    expect(thoughtSignatureSteer({ user: "someone" })).toBe(false);
    expect(thoughtSignatureSteer(null)).toBe(false);
  });

  test("an earlier tool call without its own signature is a 400; with it, none", async () => {
    const turns = (c: object) => ({
      messages: [
        { role: "user", content: "go" },
        { role: "assistant", content: null, tool_calls: [c] },
      ],
    });
    expect(missingSignature(turns(signed("call_1")))).toBeNull();
    const refused = missingSignature(turns(call("call_1")));
    expect(refused?.status).toBe(400);
    expect(JSON.stringify(await refused?.json())).toContain("thought_signature");
    expect(
      missingSignature(turns(call("call_1", { extra_content: { google: { thought_signature: mockSignatureFor("call_2") } } }))),
    ).not.toBeNull();
  });

  test("signs the tool calls of a whole answer and of a stream's deltas", async () => {
    const whole = await withThoughtSignatures(Response.json({ choices: [{ message: { tool_calls: [call("call_1")] } }] }));
    expect(((await whole.json()) as any).choices[0].message.tool_calls[0]).toEqual(signed("call_1"));
    const sse = `data: ${JSON.stringify({ choices: [{ delta: { tool_calls: [{ index: 0, ...call("call_2") }] } }] })}\n\ndata: [DONE]\n\n`;
    const streamed = await withThoughtSignatures(new Response(sse, { headers: { "content-type": "text/event-stream" } }));
    const text = await streamed.text();
    expect(sseJson(text)[0].choices[0].delta.tool_calls[0].extra_content).toEqual({
      google: { thought_signature: mockSignatureFor("call_2") },
    });
    expect(text).toEndWith("data: [DONE]\n\n");
  });
});
