import { expect, test } from "bun:test";
import { ProviderHealth } from "../../src/state/provider-health.ts";

function clock(start = 1_000_000) {
  const c = { now: start, tick: (ms: number) => (c.now += ms) };
  return c;
}

test("three consecutive failures open the circuit; after the cooldown one probe goes through", () => {
  const t = clock();
  const h = new ProviderHealth({ now: () => t.now, failureThreshold: 3, baseCooldownMs: 10_000 });
  h.recordFailure("p", "m");
  h.recordFailure("p", "m");
  expect(h.admits("p")).toBe(true);
  h.recordFailure("p", "m");
  expect(h.admits("p")).toBe(false);
  expect(h.isCoolingDown("p")).toBe(true);
  t.tick(9_999);
  expect(h.admits("p")).toBe(false);
  t.tick(1);
  expect(h.admits("p")).toBe(true); // the probe
  expect(h.admits("p")).toBe(false); // others wait for its outcome
  h.recordSuccess("p", "m", 50, 200);
  expect(h.admits("p")).toBe(true);
  expect(h.isCoolingDown("p")).toBe(false);
});

test("a failed probe reopens the circuit for twice as long, up to the ceiling", () => {
  const t = clock();
  const h = new ProviderHealth({ now: () => t.now, failureThreshold: 1, baseCooldownMs: 1_000, maxCooldownMs: 3_000 });
  h.recordFailure("p", "m");
  t.tick(1_000);
  expect(h.admits("p")).toBe(true);
  h.recordFailure("p", "m");
  t.tick(1_999);
  expect(h.admits("p")).toBe(false);
  t.tick(1);
  expect(h.admits("p")).toBe(true);
  h.recordFailure("p", "m");
  t.tick(2_999);
  expect(h.admits("p")).toBe(false);
  t.tick(1);
  expect(h.admits("p")).toBe(true);
});

test("measured latency replaces the prior after three samples, as a moving average", () => {
  const h = new ProviderHealth({ alpha: 0.5 });
  expect(h.expectedLatencyMs("p", "m", 900)).toBe(900);
  h.recordSuccess("p", "m", 10, 100);
  h.recordSuccess("p", "m", 10, 300);
  expect(h.expectedLatencyMs("p", "m", 900)).toBe(900);
  h.recordSuccess("p", "m", 10, 300);
  // 100, then 100 + 0.5*(300-100) = 200, then 200 + 0.5*(300-200) = 250
  expect(h.expectedLatencyMs("p", "m", 900)).toBe(250);
  expect(h.expectedLatencyMs("p", "other", 900)).toBe(900);
});

test("the error rate follows failures and successes; forget drops a configuration's history", () => {
  const h = new ProviderHealth({ alpha: 0.5, failureThreshold: 100 });
  h.recordFailure("p", "m");
  expect(h.errorRate("p", "m")).toBe(0.5);
  h.recordSuccess("p", "m", 1, 1);
  expect(h.errorRate("p", "m")).toBe(0.25);
  h.forget("p");
  expect(h.errorRate("p", "m")).toBe(0);
  expect(h.circuitsView()).toEqual([]);
});

test("a provider's Retry-After opens the circuit until then, even below the failure threshold", () => {
  const t = clock();
  const h = new ProviderHealth({ now: () => t.now, failureThreshold: 3, baseCooldownMs: 1_000, maxCooldownMs: 60_000 });
  h.recordFailure("p", "m", 30_000);
  expect(h.admits("p")).toBe(false);
  t.tick(29_999);
  expect(h.isCoolingDown("p")).toBe(true);
  t.tick(1);
  expect(h.admits("p")).toBe(true);
});

test("a probe that never reports blocks the others for one base period only", () => {
  const t = clock();
  const h = new ProviderHealth({ now: () => t.now, failureThreshold: 1, baseCooldownMs: 1_000 });
  h.recordFailure("p", "m");
  t.tick(1_000);
  expect(h.admits("p")).toBe(true); // the probe, whose caller then leaves
  expect(h.admits("p")).toBe(false);
  t.tick(1_000);
  expect(h.admits("p")).toBe(true); // another probe
});

test("1,000 caller-chosen model names keep at most maxModels figures: the least recently recorded are forgotten", () => {
  const h = new ProviderHealth({ maxModels: 100 });
  h.recordSuccess("p", "kept", 10, 100);
  for (let n = 0; n < 1000; n++) {
    h.recordSuccess("p", `card2-${n}`, 10, 100);
    // Recorded again, "kept" stays among the most recent.
    if (n % 50 === 0) h.recordFailure("p", "kept");
  }
  const view = h.modelsView();
  expect(view).toHaveLength(100);
  expect(view.map((m) => m.model)).toContain("kept");
  expect(view.map((m) => m.model)).toContain("card2-999");
  expect(view.map((m) => m.model)).not.toContain("card2-0");
  expect(h.errorRate("p", "card2-0")).toBe(0);
  expect(h.modelsOf("p")?.size).toBe(100);
});

test("the bound spans configurations, and a forgotten configuration frees its places", () => {
  const h = new ProviderHealth({ maxModels: 10 });
  for (let n = 0; n < 6; n++) h.recordSuccess("a", `m${n}`, 1, 1);
  for (let n = 0; n < 6; n++) h.recordSuccess("b", `m${n}`, 1, 1);
  expect(h.modelsView()).toHaveLength(10);
  expect(h.modelsOf("a")?.size).toBe(4);
  h.forget("a");
  for (let n = 6; n < 10; n++) h.recordSuccess("b", `m${n}`, 1, 1);
  expect(h.modelsView()).toHaveLength(10);
  expect(h.modelsOf("b")?.size).toBe(10);
  expect(h.modelsOf("a")).toBeUndefined();
});
