/** A configuration's own limits: counted per call, refused with the reset time before anything is sent. */
import { expect, test } from "bun:test";
import { ApiError } from "../../src/lib/errors.ts";
import type { ResolvedTarget } from "../../src/pipeline/authorize.ts";
import { takeProviderLimit } from "../../src/pipeline/provider-limit.ts";
import { ProviderLimitCounter } from "../../src/state/provider-limits.ts";

const NOW = Date.UTC(2026, 0, 1, 12, 0, 30);
const deps = () => ({ counter: new ProviderLimitCounter(() => NOW), now: () => NOW });
const size = { messages: [{ content: "hello" }], maxTokens: 10 };

test("a configuration without limits is not counted", () => {
  expect(takeProviderLimit(deps(), { configId: "p", providerName: "p", limits: {} } as ResolvedTarget, size)).toBeNull();
  expect(takeProviderLimit(deps(), { configId: null, providerName: "openai" } as ResolvedTarget, size)).toBeNull();
});

test("the call over requestsPerMinute is a 429 naming the limit, its reset and Retry-After", () => {
  const d = deps();
  const t = { configId: "p", providerName: "lab", limits: { requestsPerMinute: 2 } } as ResolvedTarget;
  takeProviderLimit(d, t, size);
  takeProviderLimit(d, t, size);
  let err: unknown;
  try {
    takeProviderLimit(d, t, size);
  } catch (x) {
    err = x;
  }
  expect(err).toBeInstanceOf(ApiError);
  const a = err as ApiError;
  expect([a.status, a.code]).toEqual([429, "rate_limit_exceeded"]);
  expect(a.message).toContain("2 requests per minute");
  expect(a.details).toMatchObject({ provider: "lab", limit: "requestsPerMinute", max: 2, resetAt: "2026-01-01T12:01:00.000Z" });
  expect(a.headers?.["retry-after"]).toBe("30");
});

test("a ticket settled at zero (nothing was sent) gives its estimated tokens back", () => {
  const d = deps();
  const t = { configId: "p", providerName: "lab", limits: { tokensPerMinute: 1000 } } as ResolvedTarget;
  const ticket = takeProviderLimit(d, t, size)!;
  expect(d.counter.usage("p").tokensPerMinute).toBeGreaterThan(0);
  ticket.settle(0);
  expect(d.counter.usage("p").tokensPerMinute).toBe(0);
});
