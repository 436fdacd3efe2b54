/**
 * The simulator's extended thinking for a messages-format request that enables it
 * (`thinking: {type: "enabled" | "adaptive"}`): a `thinking` block before the answer,
 * with a `signature`, whole or as `thinking_delta` pieces and one `signature_delta`,
 * as the vendor sends it. Its tokens are part of `output_tokens`, as the vendor bills them.
 */
import { countTextTokens } from "../lib/token-estimate.ts";
import { idSuffix } from "./answer-ids.ts";
import { splitPieces } from "./stream-pieces.ts";

export interface ThinkingRequest {
  thinking?: { type?: string; budget_tokens?: number } | null;
}

export interface SimulatedThinking {
  text: string;
  signature: string;
  tokens: number;
}

// Canned, never the prompt: the simulator's reasoning is a fixed sentence.
const THOUGHT = "The request is clear, so a short and direct answer is enough here.";

/** The thinking block's content, or null when the request did not enable thinking (`disabled`, or absent). */
export function simulatedThinking(req: ThinkingRequest, ref: string): SimulatedThinking | null {
  const type = req.thinking?.type;
  if (type !== "enabled" && type !== "adaptive") return null;
  // Opaque to the client, as the vendor's is; derived from the answer so the same request signs the same.
  const signature = Buffer.from(`simulated-signature:${idSuffix(ref, "thinking")}`).toString("base64");
  return { text: THOUGHT, signature, tokens: countTextTokens(THOUGHT) };
}

export const thinkingBlock = (t: SimulatedThinking) => ({ type: "thinking", thinking: t.text, signature: t.signature });

/** The streamed block: its start (empty), the text's pieces, the signature last. */
export function thinkingDeltas(t: SimulatedThinking, streamChunks?: number): { start: object; deltas: object[] } {
  const pieces = splitPieces(t.text, streamChunks).map((thinking) => ({ type: "thinking_delta", thinking }));
  return {
    start: { type: "thinking", thinking: "", signature: "" },
    deltas: [...pieces, { type: "signature_delta", signature: t.signature }],
  };
}
