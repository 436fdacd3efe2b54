/**
 * Google's thought signature across the Responses translation. Google's OpenAI-compatible
 * endpoint puts `extra_content.google.thought_signature` on a tool call (whole or streamed)
 * and its newest models refuse the next turn when that call comes back without it. A
 * Responses caller has no field for it, so the signature rides in the `function_call`
 * item's `id`, the one field of that item an unmodified official client sends back as it
 * was given (`input: [...response.output, outputs]`): `fc_<response>_<n>` becomes
 * `fc_<response>_<n>_ts_<signature, base64url>`, and the next turn's translation puts it
 * back on the chat tool call. The signature is Google's opaque token, never prompt text.
 */

type Json = Record<string, unknown>;

const MARK = "_ts_";
const ENCODED = /^[A-Za-z0-9_-]+$/;

/** The signature a chat tool call (or tool call delta) carries, if any. */
export function thoughtSignatureOf(call: unknown): string | null {
  const extra = (call as { extra_content?: { google?: { thought_signature?: unknown } } } | null)?.extra_content;
  const sig = extra?.google?.thought_signature;
  return typeof sig === "string" && sig !== "" ? sig : null;
}

/** The Responses item id that carries the signature, or the id as it was without one. */
export function itemIdWithSignature(itemId: string, signature: string | null): string {
  return signature === null ? itemId : `${itemId}${MARK}${Buffer.from(signature, "utf8").toString("base64url")}`;
}

/** The signature a `function_call` input item's id carries back, or null (an id the gateway did not write carries none). */
export function signatureFromItemId(id: unknown): string | null {
  if (typeof id !== "string" || !id.startsWith("fc_")) return null;
  const at = id.lastIndexOf(MARK);
  if (at < 0) return null;
  const encoded = id.slice(at + MARK.length);
  if (encoded === "" || !ENCODED.test(encoded)) return null;
  return Buffer.from(encoded, "base64url").toString("utf8");
}

/** The chat tool call's `extra_content` for a signature, as Google's endpoint takes it back. */
export function extraContentFor(signature: string | null): Json {
  return signature === null ? {} : { extra_content: { google: { thought_signature: signature } } };
}
