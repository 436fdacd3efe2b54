/**
 * Google's thought signature across the Responses translation. Google's OpenAI-compatible
 * endpoint puts `extra_content.google.thought_signature` on a tool call (whole or streamed)
 * and its newest models refuse the next turn when that call comes back without it. A
 * Responses caller has no field for it, so the gateway answers it as OpenAI answers its
 * own reasoning state: a `reasoning` output item before the `function_call`, the signature
 * (and the call it belongs to) in its opaque `encrypted_content`. A client that sends the
 * output back as the next turn's input (`input: [...response.output, outputs]`, as OpenAI's
 * guide for reasoning models says to) sends it back unmodified, and the translation puts it
 * on that chat tool call. Not the item id: ids are bounded (512 characters, schemas/ids.ts)
 * and Google's signatures can be longer. The signature is Google's token, never prompt text.
 */

type Json = Record<string, unknown>;

/** Marks the gateway's own `encrypted_content`, so another provider's reasoning state is never read as a signature. */
const PREFIX = "gw-google-thought-signature.v1.";

/** The signature a chat tool call (or tool call delta) carries, if any. */
export function thoughtSignatureOf(call: unknown): string | null {
  const extra = (call as { extra_content?: { google?: { thought_signature?: unknown } } } | null)?.extra_content;
  const sig = extra?.google?.thought_signature;
  return typeof sig === "string" && sig !== "" ? sig : null;
}

/** The `reasoning` output item that carries a call's signature to the caller and back. */
export function signatureItem(id: string, callId: string, signature: string): Json {
  const sealed = Buffer.from(JSON.stringify({ call_id: callId, thought_signature: signature }), "utf8").toString("base64url");
  return { type: "reasoning", id, summary: [], encrypted_content: `${PREFIX}${sealed}` };
}

/** The signatures the input's `reasoning` items carry back, by call id; items the gateway did not write carry none. */
export function signaturesIn(input: unknown): Map<string, string> {
  const found = new Map<string, string>();
  if (!Array.isArray(input)) return found;
  for (const item of input as (Json | null)[]) {
    const sealed = item?.type === "reasoning" ? item.encrypted_content : undefined;
    if (typeof sealed !== "string" || !sealed.startsWith(PREFIX)) continue;
    try {
      const opened = JSON.parse(Buffer.from(sealed.slice(PREFIX.length), "base64url").toString("utf8")) as Json;
      if (typeof opened.call_id === "string" && typeof opened.thought_signature === "string")
        found.set(opened.call_id, opened.thought_signature);
    } catch {
      // Not one the gateway wrote after all: it carries no signature, as any other reasoning item.
    }
  }
  return found;
}

/** The chat tool call's `extra_content` for a signature, as Google's endpoint takes it back. */
export function extraContentFor(signature: string | undefined): Json {
  return signature === undefined ? {} : { extra_content: { google: { thought_signature: signature } } };
}
