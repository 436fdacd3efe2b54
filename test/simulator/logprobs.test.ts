/** The simulator's log probabilities: only when asked, one entry a piece, the piece first among at most top_logprobs alternatives. */
import { expect, test } from "bun:test";
import { logprobsOf } from "../../src/simulator/logprobs.ts";

const PIECES = ["Hello", " there", " team"];

test("null unless logprobs is true", () => {
  expect(logprobsOf({}, PIECES)).toBeNull();
  expect(logprobsOf({ logprobs: false, top_logprobs: 3 }, PIECES)).toBeNull();
});

test("one entry a piece, with the piece's bytes, the piece most likely among its alternatives", () => {
  const lp = logprobsOf({ logprobs: true, top_logprobs: 3 }, PIECES);
  expect(lp?.refusal).toBeNull();
  expect(lp?.content.map((e) => e.token)).toEqual(PIECES);
  for (const e of lp?.content ?? []) {
    expect(e.bytes).toEqual(Array.from(new TextEncoder().encode(e.token)));
    expect(e.top_logprobs.map((t) => t.token)[0]).toBe(e.token);
    expect(e.top_logprobs).toHaveLength(3);
    expect(new Set(e.top_logprobs.map((t) => t.token)).size).toBe(3);
    const probs = e.top_logprobs.map((t) => t.logprob);
    expect(probs).toEqual([...probs].sort((a, b) => b - a));
  }
});

test("top_logprobs: none by default, never more than 20 or than the answer has pieces", () => {
  expect(logprobsOf({ logprobs: true }, PIECES)?.content[0]?.top_logprobs).toEqual([]);
  expect(logprobsOf({ logprobs: true, top_logprobs: 50 }, PIECES)?.content[0]?.top_logprobs).toHaveLength(3);
  const repeated = logprobsOf({ logprobs: true, top_logprobs: 5 }, [" the", " cat", " the", " cat", " sat"]);
  for (const e of repeated?.content ?? [])
    expect(e.top_logprobs.map((t) => t.token)).toEqual([...new Set(e.top_logprobs.map((t) => t.token))]);
  expect(repeated?.content[0]?.top_logprobs).toHaveLength(3);
  const many = Array.from({ length: 30 }, (_, i) => ` w${i}`);
  expect(logprobsOf({ logprobs: true, top_logprobs: 50 }, many)?.content[0]?.top_logprobs).toHaveLength(20);
});

test("alternatives are read from the distinct pieces in place: the i-th entry's from the other distinct pieces' i-th on, cycling", () => {
  const pieces = [" a", " b", " a", " c", " d"];
  const lp = logprobsOf({ logprobs: true, top_logprobs: 4 }, pieces);
  // Distinct: a b c d; for the i-th piece the others (the distinct ones without it) are taken from their i-th on, cycling.
  expect(lp?.content.map((e) => e.top_logprobs.map((t) => t.token))).toEqual([
    [" a", " b", " c", " d"],
    [" b", " c", " d", " a"],
    [" a", " d", " b", " c"],
    [" c", " a", " b", " d"],
    [" d", " b", " c", " a"],
  ]);
  // One distinct piece: no alternative to give.
  expect(logprobsOf({ logprobs: true, top_logprobs: 5 }, [" x", " x"])?.content.map((e) => e.top_logprobs.length)).toEqual([1, 1]);
});
