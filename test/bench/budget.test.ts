import { describe, expect, test } from "bun:test";
import { judge } from "../../bench/lib/budget.ts";
import type { Check, Row } from "../../bench/lib/report.ts";

/** One run's rows, the gateway's figures given, the bare proxy's fixed. */
function run(
  gateway: {
    rpsVsBare?: number;
    cpuVsBare?: number;
    addedP50?: number;
    p99?: number;
    ttfbAdded?: number;
    readsP50?: number;
    bigRpsVsBare?: number;
  },
  kind = "gateway",
  errors = 0,
): Row[] {
  const row = (scenario: string, k: string, fields: Partial<Row>): Row => ({
    scenario,
    title: scenario,
    target: k,
    kind: k,
    errors: 0,
    ...fields,
  });
  return [
    row("chat-1k-50", "bare", { rpsVsBare: 1, cpuVsBare: 1 }),
    row("chat-1k-50", kind, { rpsVsBare: gateway.rpsVsBare, cpuVsBare: gateway.cpuVsBare, errors }),
    row("chat-1k-1", "bare", { addedP50: 116, p99: 500 }),
    row("chat-1k-1", kind, { addedP50: gateway.addedP50, p99: gateway.p99 }),
    row("stream-1", "direct", { readsP50: 21 }),
    row("stream-1", "bare", { ttfbAdded: 300, readsP50: 21 }),
    row("stream-1", kind, { ttfbAdded: gateway.ttfbAdded, readsP50: gateway.readsP50 }),
    row("chat-16k-50", kind, { rpsVsBare: gateway.bigRpsVsBare }),
  ];
}

const verdicts = (checks: Check[]) => Object.fromEntries(checks.map((c) => [c.budget, c.ok]));

const AT_THE_LIMIT = { rpsVsBare: 0.8, cpuVsBare: 1.3, addedP50: 176, p99: 1000, ttfbAdded: 600, readsP50: 17, bigRpsVsBare: 0.6 };
const JUST_PAST = { rpsVsBare: 0.79, cpuVsBare: 1.31, addedP50: 177, p99: 1001, ttfbAdded: 601, readsP50: 16, bigRpsVsBare: 0.59 };

describe("the performance budget", () => {
  test("each limit is met exactly at its value", () => {
    expect(verdicts(judge(run(AT_THE_LIMIT), true))).toEqual({
      "1 KB, 50 conns: req/s ≥ 0.80× bare": true,
      "1 KB, 50 conns: CPU/req ≤ 1.3× bare": true,
      "1 conn: added p50 ≤ bare's + 60 µs": true,
      "1 conn: p99 ≤ 2× bare's": true,
      "stream: first byte ≤ bare's + 300 µs": true,
      "stream: chunks arrive as sent (reads ≥ 0.8× direct)": true,
      "16 KB, 50 conns: req/s ≥ 0.60× bare": true,
      "no errors, no unexpected statuses": true,
    });
  });

  test("and missed just past it", () => {
    const checks = judge(run(JUST_PAST), true);
    expect(checks.filter((c) => c.ok === false).map((c) => c.budget)).toHaveLength(7);
    expect(checks.find((c) => c.budget.startsWith("1 conn: added p50"))?.measured).toBe("+61 µs (177 µs vs 116 µs)");
  });

  test("the compiled binary's rows are judged on their own, labelled", () => {
    const checks = judge(run(AT_THE_LIMIT, "binary"), true);
    expect(checks.filter((c) => c.budget.endsWith("(binary)"))).toHaveLength(7);
    expect(checks.every((c) => c.ok === true)).toBe(true);
  });

  test("a quick run reports the figures but judges no speed; errors fail any run", () => {
    const checks = judge(run(JUST_PAST, "gateway", 2), false);
    const speed = checks.filter((c) => c.budget !== "no errors, no unexpected statuses");
    expect(speed.every((c) => c.ok === null)).toBe(true);
    expect(checks.find((c) => c.budget === "no errors, no unexpected statuses")).toEqual({
      budget: "no errors, no unexpected statuses",
      measured: "2",
      ok: false,
    });
  });

  test("a scenario left out of the run (--only) leaves its checks out, not failed", () => {
    const checks = judge(
      run(AT_THE_LIMIT).filter((r) => r.scenario === "chat-1k-50"),
      true,
    );
    expect(checks.map((c) => c.budget)).toEqual([
      "1 KB, 50 conns: req/s ≥ 0.80× bare",
      "1 KB, 50 conns: CPU/req ≤ 1.3× bare",
      "no errors, no unexpected statuses",
    ]);
  });
});
