/** Scan events: counters by category and action, and audit entries for flags and blocks that never hold the caller's text. */
import { describe, expect, test } from "bun:test";
import type { ScanEvent, ScanReport } from "../../src/domain/scan-policy.ts";
import { createLogger } from "../../src/lib/log.ts";
import { MetricsRegistry } from "../../src/lib/metrics.ts";
import { ScanEvents, scanSummary } from "../../src/services/scan-events.ts";
import { openStore } from "../../src/store/open-store.ts";
import { removeDir, tempDataDir } from "../support/gateway-process.ts";

const report = (r: Partial<ScanReport>): ScanReport => ({
  secret: 0,
  injection: 0,
  injectionFlagged: false,
  pii: 0,
  redacted: 0,
  unscanned: 0,
  blocked: null,
  ...r,
});

describe("ScanEvents", () => {
  test("audits flags and blocks by category, counts every action, and sums them back", async () => {
    const dir = tempDataDir();
    const store = openStore({ databaseUrl: null, dataDir: dir });
    try {
      await store.migrate();
      const metrics = new MetricsRegistry();
      const events = new ScanEvents(store, createLogger("silent"), metrics, () => 1_000);
      const base: Omit<ScanEvent, "report" | "flags" | "block"> = {
        orgId: "org_1",
        actor: { ref: "sa:sa_1", ip: null, userAgent: null },
        requestId: "req_1",
      };
      const flag = { category: "injection" as const, path: "metadata.jane@x.io", where: "metadata.*", kinds: ["classifier"] };
      await events.record({ ...base, report: report({ injectionFlagged: true }), flags: [flag], block: null });
      await events.record({
        ...base,
        report: report({ secret: 1, blocked: "secret" }),
        flags: [],
        block: { category: "secret", path: "messages.0.content", where: "messages.0.content", kinds: ["github_token"] },
      });
      await events.record({ ...base, report: report({ pii: 2, redacted: 2, unscanned: 1 }), flags: [], block: null });
      const entries = (await store.listAudit("org_1", { limit: 10, before: null })).entries;
      expect(entries.map((e) => [e.action, e.target]).sort()).toEqual([
        ["security.blocked", "secret"],
        ["security.flagged", "injection"],
      ]);
      expect(entries.find((e) => e.action === "security.flagged")?.details).toEqual({
        requestId: "req_1",
        paths: ["metadata.*"],
        kinds: ["classifier"],
      });
      expect(await scanSummary(store, "org_1", 0, 2_000)).toEqual({
        flagged: { injection: 1 },
        blocked: { secret: 1, injection: 0, pii: 0 },
      });
      expect(await scanSummary(store, "org_1", 1_001, 2_000)).toEqual({
        flagged: { injection: 0 },
        blocked: { secret: 0, injection: 0, pii: 0 },
      });
      const scrape = metrics.render();
      for (const line of [
        'gateway_security_actions_total{category="injection",action="flagged"} 1',
        'gateway_security_actions_total{category="secret",action="blocked"} 1',
        'gateway_security_actions_total{category="pii",action="redacted"} 1',
        'gateway_security_actions_total{category="file",action="unscanned"} 1',
      ])
        expect(scrape).toContain(line);
    } finally {
      await store.close();
      removeDir(dir);
    }
  });
});
