/**
 * The simulator's `logprobs` for a chat answer asked for them (`logprobs: true`, with
 * `top_logprobs` alternatives), in OpenAI's shape: one entry a streamed piece, so a
 * client that reads `choices[].logprobs.content` finds it as a live key would.
 */

export interface TokenLogprob {
  token: string;
  logprob: number;
  bytes: number[];
  top_logprobs: { token: string; logprob: number; bytes: number[] }[];
}

export interface LogprobsRequest {
  logprobs?: boolean | null;
  top_logprobs?: number | null;
}

const encoder = new TextEncoder();
const bytesOf = (token: string) => Array.from(encoder.encode(token));

/** A piece's entry: the piece itself most likely, then the answer's other pieces as the alternatives, each less likely. */
function entry(piece: string, alternatives: readonly string[], top: number, at: number): TokenLogprob {
  // Distinct, as a model's alternatives are distinct tokens (an answer repeats words).
  const others = [...new Set(alternatives)].filter((a) => a !== piece);
  const tops = [
    piece,
    ...Array.from({ length: Math.min(top, others.length + 1) - 1 }, (_, i) => others[(at + i) % others.length] as string),
  ];
  // Deterministic and ordered: the chosen token first, each alternative an order of magnitude less likely.
  const ranked = tops.map((token, i) => ({ token, logprob: -0.01 - 2.3 * i, bytes: bytesOf(token) }));
  return { token: piece, logprob: -0.01, bytes: bytesOf(piece), top_logprobs: ranked.slice(0, top) };
}

/** The pieces' log probabilities, or null when the request did not ask (as OpenAI answers then). */
export function logprobsOf(req: LogprobsRequest, pieces: readonly string[]): { content: TokenLogprob[]; refusal: null } | null {
  if (req.logprobs !== true) return null;
  const top = Math.max(0, Math.min(20, req.top_logprobs ?? 0));
  return { content: pieces.map((p, i) => entry(p, pieces, top, i)), refusal: null };
}
