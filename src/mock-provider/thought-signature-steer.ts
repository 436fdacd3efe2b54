/**
 * The mock provider's thought-signature steer: a chat call whose end user (`user`) is
 * `thought-signature` is answered as Google's OpenAI-compatible endpoint answers its
 * thinking models: each tool call (whole, or the first delta of a streamed one) carries
 * `extra_content.google.thought_signature`, and a call whose earlier assistant tool calls
 * come back without the signature given for them is refused with a 400, as Google
 * refuses it. The end user steers it, so the model stays one the catalog prices.
 */
import { openAiError } from "../simulator/openai-format.ts";

export const THOUGHT_SIGNATURE_USER = "thought-signature";

type Json = Record<string, any>;

/**
 * The signature the mock gives a tool call: opaque, with the `+`, `/` and `=` of Google's
 * base64, and longer than the 512 characters an item id may have, as Google's can be.
 */
export function mockSignatureFor(callId: string): string {
  return `CiQB+/${"A".repeat(1024)}${Buffer.from(`thought:${callId}`).toString("base64")}`;
}

export function thoughtSignatureSteer(body: Json | null): boolean {
  return body?.user === THOUGHT_SIGNATURE_USER;
}

/** Google's 400 when an earlier tool call comes back without its signature; null when every one has it. */
export function missingSignature(body: Json): Response | null {
  for (const [i, m] of (Array.isArray(body.messages) ? body.messages : []).entries()) {
    if (m?.role !== "assistant" || !Array.isArray(m.tool_calls)) continue;
    for (const call of m.tool_calls) {
      if (call?.extra_content?.google?.thought_signature === mockSignatureFor(String(call?.id))) continue;
      return openAiError(
        400,
        `Function call is missing a thought_signature in functionCall parts (messages[${i}], call ${JSON.stringify(call?.id)}).`,
      );
    }
  }
  return null;
}

function sign(chunk: Json): Json {
  for (const choice of Array.isArray(chunk.choices) ? chunk.choices : []) {
    const calls = (choice?.message ?? choice?.delta)?.tool_calls;
    for (const call of Array.isArray(calls) ? calls : [])
      if (typeof call?.id === "string") call.extra_content = { google: { thought_signature: mockSignatureFor(call.id) } };
  }
  return chunk;
}

/** The simulated answer with a signature on each tool call, whole or streamed. */
export async function withThoughtSignatures(res: Response): Promise<Response> {
  if (!res.ok) return res;
  const text = await res.text();
  const stream = (res.headers.get("content-type") ?? "").includes("text/event-stream");
  const body = stream
    ? text
        .split("\n")
        .map((line) => (line.startsWith("data: {") ? `data: ${JSON.stringify(sign(JSON.parse(line.slice(6))))}` : line))
        .join("\n")
    : JSON.stringify(sign(JSON.parse(text)));
  const headers = new Headers(res.headers);
  headers.delete("content-length");
  return new Response(body, { status: res.status, headers });
}
