import { expect, test } from "bun:test";
import { ProviderLimitCounter } from "../../src/state/provider-limits.ts";

const MINUTE = 60_000;
const DAY = 86_400_000;

function counter(startMs = 10 * DAY + 5_000) {
  const clock = { now: startMs };
  return { clock, limits: new ProviderLimitCounter(() => clock.now) };
}

test("requests per minute: the next call past the limit is refused until the minute turns", () => {
  const { clock, limits } = counter();
  for (let i = 0; i < 3; i++) expect(limits.take("p", { requestsPerMinute: 3 }, 10).ok).toBe(true);
  const refused = limits.take("p", { requestsPerMinute: 3 }, 10);
  expect(refused).toEqual({ ok: false, limit: "requestsPerMinute", max: 3, resetAtMs: 10 * DAY + MINUTE });
  expect(limits.atLimit("p", { requestsPerMinute: 3 })).toBe(true);
  expect(limits.atLimit("other", { requestsPerMinute: 3 })).toBe(false);
  clock.now = 10 * DAY + MINUTE;
  expect(limits.take("p", { requestsPerMinute: 3 }, 10).ok).toBe(true);
});

test("tokens per minute count the estimate, corrected to the provider's count when the call ends", () => {
  const { limits } = counter();
  const first = limits.take("p", { tokensPerMinute: 1000 }, 600);
  if (!first.ok) throw new Error("refused");
  expect(limits.take("p", { tokensPerMinute: 1000 }, 600)).toMatchObject({ ok: false, limit: "tokensPerMinute" });
  first.settle(100);
  first.settle(100); // once only
  expect(limits.usage("p").tokensPerMinute).toBe(100);
  expect(limits.take("p", { tokensPerMinute: 1000 }, 600).ok).toBe(true);
});

test("a call larger than the whole token limit passes alone in a fresh minute", () => {
  const { limits } = counter();
  expect(limits.take("p", { tokensPerMinute: 100 }, 5000).ok).toBe(true);
  expect(limits.take("p", { tokensPerMinute: 100 }, 1).ok).toBe(false);
});

test("requests per day reset at UTC midnight, and usage reports the current windows", () => {
  const { clock, limits } = counter();
  limits.take("p", { requestsPerDay: 2 }, 0);
  limits.take("p", { requestsPerDay: 2 }, 0);
  expect(limits.usage("p")).toEqual({ requestsPerMinute: 2, tokensPerMinute: 0, requestsPerDay: 2 });
  expect(limits.take("p", { requestsPerDay: 2 }, 0)).toEqual({ ok: false, limit: "requestsPerDay", max: 2, resetAtMs: 11 * DAY });
  clock.now = 10 * DAY + 2 * MINUTE;
  expect(limits.usage("p")).toEqual({ requestsPerMinute: 0, tokensPerMinute: 0, requestsPerDay: 2 });
  clock.now = 11 * DAY;
  expect(limits.take("p", { requestsPerDay: 2 }, 0).ok).toBe(true);
});

test("no limits configured: everything passes and is still counted", () => {
  const { limits } = counter();
  for (let i = 0; i < 100; i++) expect(limits.take("p", {}, 1000).ok).toBe(true);
  expect(limits.usage("p").requestsPerMinute).toBe(100);
  expect(limits.atLimit("p", {})).toBe(false);
});
