/** What a provider's answer becomes for one attempt: the body, the outcome, another model refused, a cut stream's charge, a 429's wait. */
import { expect, test } from "bun:test";
import { ApiError } from "../../src/lib/errors.ts";
import {
  chargeCutStream,
  jsonOutcome,
  reshapedText,
  keepCounts,
  parseObject,
  rethrow,
  retryAfterMs,
  substitutionOf,
} from "../../src/pipeline/provider-answer.ts";
import type { CallUsage } from "../../src/providers/wire-format.ts";
import { testTarget } from "../support/targets.ts";

const target = testTarget("openai", "gpt-4o");
const usage = (model: string | null, extra: Partial<CallUsage> = {}): CallUsage => ({
  model,
  promptTokens: 10,
  completionTokens: 5,
  ...extra,
});

test("only a JSON object is an answer's body", () => {
  expect(parseObject('{"id":"x","usage":{}}')).toEqual({ id: "x", usage: {} });
  for (const text of ["[1,2]", "null", '"text"', "42", "{not json", ""]) expect(parseObject(text)).toBeNull();
});

test("a whole answer's outcome relays the provider's text as it came, or the reshaped body for a caller of another format", () => {
  const text = '{"model":"gpt-4o","choices":[]}';
  const body = JSON.parse(text);
  expect(jsonOutcome(target, 200, text, usage("gpt-4o"), null, 7)).toEqual({
    type: "json",
    status: 200,
    text,
    servedBy: "openai/gpt-4o",
    costMicros: 7,
  });
  expect(reshapedText(target, text, body, undefined)).toBe(text);
  expect(reshapedText(target, text, body, (b) => ({ wrapped: b.model }))).toBe('{"wrapped":"gpt-4o"}');
});

test("a body the translation cannot read is the provider's 502, not a crash", () => {
  const failed = reshapedText(target, "{}", {}, (b) => ({ n: (b.content as string[]).map((x) => x) }));
  expect(failed).toBeInstanceOf(ApiError);
  expect([(failed as ApiError).status, (failed as ApiError).code]).toEqual([502, "provider_error"]);
});

test("a tool fee marks the price estimated; a substituted answer is refused once accounted", () => {
  expect(jsonOutcome(target, 200, "{}", usage("gpt-4o", { feeMicros: 3 }), null, 10).priceEstimated).toBe(true);
  const refused = substitutionOf(target, usage("gpt-4o-mini"));
  expect(refused).toBeInstanceOf(ApiError);
  expect(refused?.code).toBe("model_substitution_detected");
  expect(refused?.details).toEqual({ requested: "gpt-4o", answered: "gpt-4o-mini" });
  expect(() => jsonOutcome(target, 200, "{}", usage("gpt-4o-mini"), refused, 10)).toThrow(refused as ApiError);
});

test("the requested model under another spelling, or an answer naming none, is not a substitution", () => {
  expect(substitutionOf(target, usage("gpt-4o-2024-08-06"))).toBeNull();
  expect(substitutionOf(target, usage(null))).toBeNull();
});

test("a 429's Retry-After in seconds becomes milliseconds; anything else is no wait", () => {
  const limited = (value?: string) =>
    new ApiError(429, "rate_limit_exceeded", "slow down", value === undefined ? {} : { headers: { "retry-after": value } });
  expect(retryAfterMs(limited("3"))).toBe(3000);
  expect(retryAfterMs(limited())).toBeUndefined();
  expect(retryAfterMs(limited("0"))).toBeUndefined();
  expect(retryAfterMs(limited("soon"))).toBeUndefined();
  const precise = new ApiError(429, "rate_limit_exceeded", "slow down", { headers: { "retry-after": "1", "retry-after-ms": "250" } });
  expect(retryAfterMs(precise)).toBe(250);
});

test("a cut stream is charged the prompt as estimated and at least a token per piece that passed", () => {
  const unreported: CallUsage = { model: null, promptTokens: 0, completionTokens: 0 };
  chargeCutStream(unreported, { messages: [{ content: "a prompt of some words to count" }] }, 4);
  expect(unreported.promptTokens).toBeGreaterThan(0);
  expect(unreported.completionTokens).toBe(4);
  const reported: CallUsage = { model: "gpt-4o", promptTokens: 12, completionTokens: 9 };
  chargeCutStream(reported, { messages: [] }, 4);
  expect(reported).toEqual({ model: "gpt-4o", promptTokens: 12, completionTokens: 9 });
});

test("rethrow passes a failure handed on as a value", () => {
  const err = new Error("accounted, then thrown");
  expect(() => rethrow(err)).toThrow(err);
});

test("a provider's counts are whole non-negative numbers, anything else unreported", () => {
  const odd = { model: "gpt-4o", promptTokens: { n: 1 }, completionTokens: -5, feeMicros: Number.NaN } as unknown as CallUsage;
  expect(keepCounts(odd)).toEqual({ model: "gpt-4o", promptTokens: 0, completionTokens: 0, feeMicros: 0 });
  const fine = { model: "gpt-4o", promptTokens: 12, completionTokens: 7.9 };
  expect(keepCounts(fine)).toEqual({ model: "gpt-4o", promptTokens: 12, completionTokens: 7 });
  for (const v of ["12", Number.POSITIVE_INFINITY, null, true])
    expect(keepCounts({ model: null, promptTokens: v as never, completionTokens: 1 }).promptTokens).toBe(0);
});

test("a provider's fee is no more than the request's own limits let it charge", () => {
  const fee = (feeMicros: unknown, max?: number) =>
    keepCounts({ model: null, promptTokens: 1, completionTokens: 1, feeMicros } as CallUsage, max).feeMicros;
  expect(fee(1e15, 30_000)).toBe(30_000);
  // Past the safe integers (10^12 searches): the ceiling, not taken as unreported.
  expect(fee(1e16, 30_000)).toBe(30_000);
  expect(fee(20_000, 30_000)).toBe(20_000);
  expect(fee(5_000, 0)).toBe(0);
  expect(fee(Number.NaN, 30_000)).toBe(0);
  expect(fee(1e15)).toBe(1e15);
});
