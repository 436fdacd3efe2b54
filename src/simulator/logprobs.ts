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

/**
 * The answer's distinct pieces, once, with where each stands: an entry's alternatives are
 * read from it in O(top), never by a pass over the whole answer per piece (which made a
 * long answer's logprobs quadratic: a sandbox caller's tool results could hold the
 * process for minutes).
 */
interface Distinct {
  tokens: string[];
  at: Map<string, number>;
}

function distinctOf(pieces: readonly string[]): Distinct {
  const at = new Map<string, number>();
  for (const p of pieces) if (!at.has(p)) at.set(p, at.size);
  return { tokens: [...at.keys()], at };
}

/** A piece's entry: the piece itself most likely, then the answer's other pieces as the alternatives, each less likely. */
function entry(piece: string, distinct: Distinct, top: number, at: number): TokenLogprob {
  // Distinct, as a model's alternatives are distinct tokens (an answer repeats words): the distinct pieces without
  // this one, the k-th of which stands at k, or k + 1 past the piece's own place.
  const own = distinct.at.get(piece) as number;
  const others = distinct.tokens.length - 1;
  const tops = [piece];
  for (let i = 0; i < Math.min(top, others + 1) - 1; i++) {
    const k = (at + i) % others;
    tops.push(distinct.tokens[k < own ? k : k + 1] as string);
  }
  // Deterministic and ordered: the chosen token first, each alternative an order of magnitude less likely.
  const ranked = tops.map((token, i) => ({ token, logprob: -0.01 - 2.3 * i, bytes: bytesOf(token) }));
  return { token: piece, logprob: -0.01, bytes: bytesOf(piece), top_logprobs: ranked.slice(0, top) };
}

/** The pieces' log probabilities, or null when the request did not ask (as OpenAI answers then). */
export function logprobsOf(req: LogprobsRequest, pieces: readonly string[]): { content: TokenLogprob[]; refusal: null } | null {
  if (req.logprobs !== true) return null;
  const top = Math.max(0, Math.min(20, req.top_logprobs ?? 0));
  const distinct = distinctOf(pieces);
  return { content: pieces.map((p, i) => entry(p, distinct, top, i)), refusal: null };
}
