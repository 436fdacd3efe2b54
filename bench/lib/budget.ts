/** The performance budget (issue 6, README "Performance"), judged from one run's rows. */
import type { Check, Row } from "./report.ts";

const us = (v: number | undefined) => `${Math.round(v ?? Number.NaN)} µs`;
const x = (v: number | undefined) => `${(v ?? Number.NaN).toFixed(2)}×`;

export function judge(rows: Row[], judged: boolean): Check[] {
  const find = (scenario: string, kind: string) => rows.find((r) => r.scenario === scenario && r.kind === kind);
  const verdict = (ok: boolean) => (judged ? ok : null);
  const checks: Check[] = [];
  for (const kind of ["gateway", "binary"]) {
    const label = kind === "binary" ? " (binary)" : "";
    const full = find("chat-1k-50", kind);
    if (full?.rpsVsBare !== undefined)
      checks.push({
        budget: `1 KB, 50 conns: req/s ≥ 0.80× bare${label}`,
        measured: x(full.rpsVsBare),
        ok: verdict(full.rpsVsBare >= 0.8),
      });
    if (full?.cpuVsBare !== undefined)
      checks.push({
        budget: `1 KB, 50 conns: CPU/req ≤ 1.3× bare${label}`,
        measured: x(full.cpuVsBare),
        ok: verdict(full.cpuVsBare <= 1.3),
      });
    const one = find("chat-1k-1", kind);
    const bareOne = find("chat-1k-1", "bare");
    if (one?.addedP50 !== undefined && bareOne?.addedP50 !== undefined) {
      const extra = one.addedP50 - bareOne.addedP50;
      checks.push({
        budget: `1 conn: added p50 ≤ bare's + 60 µs${label}`,
        measured: `+${us(extra)} (${us(one.addedP50)} vs ${us(bareOne.addedP50)})`,
        ok: verdict(extra <= 60),
      });
    }
    if (one?.p99 !== undefined && bareOne?.p99 !== undefined)
      checks.push({
        budget: `1 conn: p99 ≤ 2× bare's${label}`,
        measured: x(one.p99 / bareOne.p99),
        ok: verdict(one.p99 <= 2 * bareOne.p99),
      });
    const stream = find("stream-1", kind);
    const bareStream = find("stream-1", "bare");
    const directStream = find("stream-1", "direct");
    if (stream?.ttfbAdded !== undefined && bareStream?.ttfbAdded !== undefined) {
      const extra = stream.ttfbAdded - bareStream.ttfbAdded;
      checks.push({ budget: `stream: first byte ≤ bare's + 300 µs${label}`, measured: `+${us(extra)}`, ok: verdict(extra <= 300) });
    }
    if (stream?.readsP50 !== undefined && directStream?.readsP50 !== undefined) {
      checks.push({
        budget: `stream: chunks arrive as sent (reads ≥ 0.8× direct)${label}`,
        measured: `${stream.readsP50} vs ${directStream.readsP50}`,
        ok: verdict(stream.readsP50 >= 0.8 * directStream.readsP50),
      });
    }
    const big = find("chat-16k-50", kind);
    if (big?.rpsVsBare !== undefined)
      checks.push({ budget: `16 KB, 50 conns: req/s ≥ 0.60× bare${label}`, measured: x(big.rpsVsBare), ok: verdict(big.rpsVsBare >= 0.6) });
  }
  // Issue 27: shared state (Redis + Postgres) adds at most 15 µs of the gateway's CPU per request.
  const shared = find("chat-1k-50", "shared");
  const embedded = find("chat-1k-50", shared && find("chat-1k-50", "binary") ? "binary" : "gateway");
  if (shared?.cpuPerRequest !== undefined && embedded?.cpuPerRequest !== undefined) {
    const extra = shared.cpuPerRequest - embedded.cpuPerRequest;
    checks.push({
      budget: "Redis + Postgres: added CPU/req ≤ 15 µs (1 KB, 50 conns)",
      measured: `+${us(extra)} (${us(shared.cpuPerRequest)} vs ${us(embedded.cpuPerRequest)})`,
      ok: verdict(extra <= 15),
    });
  }
  const sharedOne = find("chat-1k-1", "shared");
  const embeddedOne = find("chat-1k-1", sharedOne && find("chat-1k-1", "binary") ? "binary" : "gateway");
  if (sharedOne?.p50 !== undefined && embeddedOne?.p50 !== undefined) {
    checks.push({
      budget: "Redis + Postgres: added p50, 1 conn (reported: one loopback round trip)",
      measured: `+${us(sharedOne.p50 - embeddedOne.p50)}`,
      ok: null,
    });
  }
  const errors = rows.reduce((n, r) => n + r.errors, 0);
  checks.push({ budget: "no errors, no unexpected statuses", measured: String(errors), ok: errors === 0 });
  return checks;
}
