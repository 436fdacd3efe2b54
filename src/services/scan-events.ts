/**
 * What scanning found and did, kept: counts by category and action on /metrics
 * (bounded labels), and an audit entry for every flagged or refused call with the
 * path and kinds of finding, never the text. `metrics.comprehensive` and the
 * dashboard read the audit counts back (scanSummary).
 */
import type { ScanEvent, ScanRecorder } from "../domain/scan-policy.ts";
import type { Logger } from "../lib/log.ts";
import { Counter, type MetricsRegistry } from "../lib/metrics.ts";
import type { Store } from "../store/store.ts";
import type { AuditAction } from "../domain/audit-actions.ts";
import { recordAudit } from "./audit.ts";

export const SCAN_FLAGGED = "security.flagged" satisfies AuditAction;
export const SCAN_BLOCKED = "security.blocked" satisfies AuditAction;

export class ScanEvents implements ScanRecorder {
  private readonly actions: Counter | null;

  constructor(
    private readonly store: Store,
    private readonly log: Logger,
    metrics: MetricsRegistry | null,
    private readonly now: () => number = Date.now,
  ) {
    this.actions =
      metrics?.register(
        new Counter(
          "gateway_security_actions_total",
          "Scanned calls by category and what was done: blocked, flagged (forwarded), redacted, unscanned (files not read).",
          ["category", "action"],
        ),
      ) ?? null;
  }

  async record(e: ScanEvent): Promise<void> {
    const r = e.report;
    if (r.blocked) this.actions?.inc([r.blocked, "blocked"]);
    if (r.injectionFlagged) this.actions?.inc(["injection", "flagged"]);
    if (r.redacted) this.actions?.inc(["pii", "redacted"]);
    if (r.unscanned) this.actions?.inc(["file", "unscanned"], r.unscanned);
    try {
      if (e.block) await recordAudit(this.store, e.orgId, e.actor, SCAN_BLOCKED, e.block.category, this.details(e, [e.block]), this.now());
      else if (e.flags.length)
        await recordAudit(this.store, e.orgId, e.actor, SCAN_FLAGGED, "injection", this.details(e, e.flags), this.now());
    } catch (err) {
      // The call's own answer does not depend on the audit log; the failure is an operator's matter.
      this.log.error("scan audit entry not written", { error: String(err) });
    }
  }

  private details(e: ScanEvent, marks: ScanEvent["flags"]): Record<string, unknown> {
    return {
      requestId: e.requestId,
      paths: [...new Set(marks.map((m) => m.where))].slice(0, 20),
      kinds: [...new Set(marks.flatMap((m) => m.kinds))],
    };
  }
}

/** Flagged and refused calls of an organization in [from, to), by category, from the audit log. */
export async function scanSummary(store: Store, orgId: string, from: number, to: number) {
  const rows = await store.countAudit(orgId, [SCAN_FLAGGED, SCAN_BLOCKED], from, to);
  const count = (action: string, target: string) => rows.find((r) => r.action === action && r.target === target)?.count ?? 0;
  return {
    flagged: { injection: count(SCAN_FLAGGED, "injection") },
    blocked: { secret: count(SCAN_BLOCKED, "secret"), injection: count(SCAN_BLOCKED, "injection"), pii: count(SCAN_BLOCKED, "pii") },
  };
}
