/** The fallback loop on hand-built targets: what moves on, what stops, what is skipped. */
import { expect, test } from "bun:test";
import { ApiError } from "../../src/lib/errors.ts";
import type { ResolvedTarget } from "../../src/pipeline/authorize.ts";
import type { JsonOutcome } from "../../src/pipeline/call-types.ts";
import { isProviderFault, movesOn, runAttempts, TargetUnsuitable } from "../../src/pipeline/fallback.ts";
import { ProviderHealth } from "../../src/state/provider-health.ts";

const target = (id: string) => ({ configId: id, providerName: id, model: "m" }) as ResolvedTarget;
const ok = (by: string): JsonOutcome => ({ type: "json", status: 200, text: "{}", servedBy: by, costMicros: 0 });
const e = (status: number, code: ConstructorParameters<typeof ApiError>[1]) => new ApiError(status, code, "x");

test("provider faults move on; the caller's own errors do not", () => {
  expect(isProviderFault(e(502, "provider_error"))).toBe(true);
  expect(isProviderFault(e(503, "provider_unavailable"))).toBe(true);
  expect(isProviderFault(e(504, "provider_timeout"))).toBe(true);
  expect(isProviderFault(e(429, "rate_limit_exceeded"))).toBe(true);
  expect(isProviderFault(e(400, "provider_error"))).toBe(false); // the provider refused the request itself
  // The provider refused the configuration's own key (revoked, expired): another configuration may answer.
  expect(isProviderFault(e(401, "provider_error"))).toBe(true);
  expect(movesOn(e(401, "provider_error"))).toBe(true);
  // A 403 (no access to this model) moves on too, but is not held against the configuration's health:
  // a caller can earn one by naming a model the key may not use.
  expect(movesOn(e(403, "provider_error"))).toBe(true);
  expect(isProviderFault(e(403, "provider_error"))).toBe(false);
  expect(movesOn(e(404, "provider_error"))).toBe(false);
  expect(movesOn(e(403, "provider_blocked"))).toBe(false); // the gateway's own policy: never worked around
  expect(movesOn(e(400, "invalid_request"))).toBe(false);
  expect(isProviderFault(e(429, "spend_cap_exceeded"))).toBe(false);
  expect(isProviderFault(e(502, "model_substitution_detected"))).toBe(false); // paid for: never retried
  expect(isProviderFault(new Error("boom"))).toBe(false);
});

test("the next target answers after a fault, counting the attempts", async () => {
  const tried: string[] = [];
  const done = await runAttempts({ targets: [target("a"), target("b"), target("c")], fallback: true }, undefined, async (t, n) => {
    tried.push(`${t.configId}#${n}`);
    if (t.configId === "a") throw e(503, "provider_unavailable");
    return ok(t.configId!);
  });
  // Each attempt is told its number (its usage row records it).
  expect(tried).toEqual(["a#1", "b#2"]);
  expect(done.attempts).toBe(2);
  expect(done.target.configId).toBe("b");
});

test("a non-fault error stops at once; the last fault is thrown with the attempt count", async () => {
  const stop = runAttempts({ targets: [target("a"), target("b")], fallback: true }, undefined, async () => {
    throw e(400, "invalid_request");
  });
  await expect(stop).rejects.toMatchObject({ code: "invalid_request" });
  const all = await runAttempts({ targets: [target("a"), target("b")], fallback: true }, undefined, async () => {
    throw e(502, "provider_error");
  }).catch((x) => x);
  expect(all).toBeInstanceOf(ApiError);
  expect(all.headers["x-gw-attempts"]).toBe("2");
});

test("fallback off makes one attempt", async () => {
  const r = await runAttempts({ targets: [target("a"), target("b")], fallback: false }, undefined, async () => {
    throw e(502, "provider_error");
  }).catch((x) => x);
  expect(r.code).toBe("provider_error");
  expect(r.headers?.["x-gw-attempts"]).toBeUndefined();
});

test("a cooling-down target is skipped while another remains; when all left cool down, the best ranked of them is tried", async () => {
  const health = new ProviderHealth({ failureThreshold: 1, now: () => 0 });
  health.recordFailure("a", "m");
  const numbers: number[] = [];
  const first = await runAttempts({ targets: [target("a"), target("b")], fallback: true }, health, async (t, n) => {
    numbers.push(n);
    return ok(t.configId!);
  });
  expect(first.target.configId).toBe("b");
  // A skipped target takes no attempt, so the one that answers is the first.
  expect(first.attempts).toBe(1);
  expect(numbers).toEqual([1]);
  health.recordFailure("b", "m");
  // Both cool down: the first (the named model, the router's choice) is the one tried, as the probe, not the last ranked.
  const tried: string[] = [];
  const all = await runAttempts({ targets: [target("a"), target("b")], fallback: true }, health, async (t) => {
    tried.push(t.configId!);
    return ok(t.configId!);
  });
  expect(all.target.configId).toBe("a");
  expect(tried).toEqual(["a"]);
  // A later one that does not cool down is tried before it.
  const c = await runAttempts({ targets: [target("a"), target("b"), target("c")], fallback: true }, health, async (t) => ok(t.configId!));
  expect(c.target.configId).toBe("c");
});

test("an unsuitable fallback target is skipped uncounted; with none left, the last provider's fault is the answer", async () => {
  const unsuitable = () => new TargetUnsuitable("needs the Responses API");
  const skipped = await runAttempts({ targets: [target("a"), target("b"), target("c")], fallback: true }, undefined, async (t) => {
    if (t.configId === "a") throw e(503, "provider_unavailable");
    if (t.configId === "b") throw unsuitable();
    return ok(t.configId!);
  });
  expect(skipped).toMatchObject({ attempts: 2, target: { configId: "c" } });
  const ended = await runAttempts({ targets: [target("a"), target("b")], fallback: true }, undefined, async (t) => {
    throw t.configId === "a" ? e(502, "provider_error") : unsuitable();
  }).catch((err) => err);
  expect(ended).toMatchObject({ status: 502, code: "provider_error" });
  // The first target unsuitable is the caller's own request: its 400 stands.
  const first = await runAttempts({ targets: [target("a"), target("b")], fallback: true }, undefined, async () => {
    throw unsuitable();
  }).catch((err) => err);
  expect(first).toBeInstanceOf(TargetUnsuitable);
});

test("a target that turns out unsuitable when resolved (its configuration gone since the plan) is passed over uncounted", async () => {
  const gone = () => Promise.reject(new TargetUnsuitable("b-gone/m is no longer configured."));
  const fault = async (t: ResolvedTarget) => {
    if (t.configId === "a") throw e(504, "provider_timeout");
    return ok(t.configId!);
  };
  const passed = await runAttempts({ targets: [target("a"), gone, () => target("c")], fallback: true }, undefined, fault);
  expect(passed).toMatchObject({ attempts: 2, target: { configId: "c" } });
  // Gone as the last target: the provider's own fault is the answer, not a 400 about a configuration the caller never named.
  const last = await runAttempts({ targets: [target("a"), gone], fallback: true }, undefined, fault).catch((err) => err);
  expect(last).toMatchObject({ status: 504, code: "provider_timeout" });
  // Any other resolution failure (a fallback model the caller named that does not exist) is still the caller's error.
  const named = await runAttempts(
    { targets: [target("a"), () => Promise.reject(e(404, "model_not_found"))], fallback: true },
    undefined,
    fault,
  ).catch((err) => err);
  expect(named).toMatchObject({ status: 404, code: "model_not_found" });
});

test("a fallback naming the configuration and model that just failed is passed over: a retry of the same provider, not a fallback", async () => {
  const tried: string[] = [];
  const same = (id: string, model: string) => ({ configId: id, providerName: id, model }) as ResolvedTarget;
  const run = (targets: [ResolvedTarget, ...ResolvedTarget[]]) =>
    runAttempts({ targets, fallback: true }, undefined, async (t) => {
      tried.push(`${t.configId}/${t.model}`);
      if (t.configId === "a" && t.model === "m") throw e(429, "rate_limit_exceeded");
      return ok(t.configId!);
    });
  const done = await run([same("a", "m"), same("a", "m"), same("a", "other"), same("b", "m")]);
  expect(tried).toEqual(["a/m", "a/other"]);
  expect(done.attempts).toBe(2);
  // Named again as the last target: the first failure is the answer, after one attempt.
  tried.length = 0;
  const ended = await run([same("a", "m"), same("a", "m"), same("a", "m"), same("a", "m")]).catch((x) => x);
  expect(tried).toEqual(["a/m"]);
  expect(ended).toMatchObject({ status: 429, code: "rate_limit_exceeded" });
});

test("a routed plan passes over a candidate its spend cap refuses, uncounted, and says so; a named plan keeps the refusal", async () => {
  const capped = (t: ResolvedTarget) => t.configId === "a" || t.configId === "b";
  const tried: string[] = [];
  const attempt = async (t: ResolvedTarget, n: number) => {
    tried.push(`${t.configId}#${n}`);
    if (capped(t)) throw e(429, t.configId === "a" ? "monthly_cap_exceeded" : "spend_cap_exceeded");
    return ok(t.configId!);
  };
  const routed = await runAttempts(
    { targets: [target("a"), target("b"), target("c")], fallback: true, passOverCaps: true },
    undefined,
    attempt,
  );
  // Nothing was sent to a or b, so the answering attempt is the first.
  expect(tried).toEqual(["a#1", "b#1", "c#1"]);
  expect(routed).toMatchObject({
    attempts: 1,
    target: { configId: "c" },
    capSkipped: ["a/m=monthly_cap_exceeded", "b/m=spend_cap_exceeded"],
  });
  // x-gw-fallback: off keeps one attempt at a provider; passing over a candidate sent nothing, so it still happens.
  tried.length = 0;
  const off = await runAttempts({ targets: [target("a"), target("c")], fallback: false, passOverCaps: true }, undefined, attempt);
  expect(off).toMatchObject({ attempts: 1, target: { configId: "c" } });
  // A named model (and its fallback models) is what the caller asked for: the cap's refusal is the answer.
  tried.length = 0;
  const named = await runAttempts({ targets: [target("a"), target("c")], fallback: true }, undefined, attempt).catch((x) => x);
  expect(named).toMatchObject({ status: 429, code: "monthly_cap_exceeded" });
  expect(tried).toEqual(["a#1"]);
});

test("when no routed candidate fits the cap, the first refusal is the answer; a provider's failure of one that fit wins over it", async () => {
  const refusal = (code: "spend_cap_exceeded" | "monthly_cap_exceeded") => e(429, code);
  const none = await runAttempts({ targets: [target("a"), target("b")], fallback: true, passOverCaps: true }, undefined, async (t) => {
    throw refusal(t.configId === "a" ? "monthly_cap_exceeded" : "spend_cap_exceeded");
  }).catch((x) => x);
  expect(none).toMatchObject({ status: 429, code: "monthly_cap_exceeded" });
  expect(none.headers?.["x-gw-attempts"]).toBeUndefined();
  // b fitted and failed: its failure, which another try may not repeat, not the refusal of a it was never meant to answer.
  const failed = await runAttempts({ targets: [target("a"), target("b")], fallback: true, passOverCaps: true }, undefined, async (t) => {
    throw t.configId === "a" ? refusal("monthly_cap_exceeded") : e(503, "provider_unavailable");
  }).catch((x) => x);
  expect(failed).toMatchObject({ status: 503, code: "provider_unavailable" });
  // Other errors of the caller's own still stop a routed call at once.
  const tried: string[] = [];
  const stop = await runAttempts({ targets: [target("a"), target("b")], fallback: true, passOverCaps: true }, undefined, async (t) => {
    tried.push(t.configId!);
    throw e(400, "invalid_request");
  }).catch((x) => x);
  expect(stop.code).toBe("invalid_request");
  expect(tried).toEqual(["a"]);
});
