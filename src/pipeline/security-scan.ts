/**
 * Stage 6: mandatory security scanning of every text a call sends, with the
 * organization's action per category (docs/scanning.md). Credentials always block
 * (400 `security_violation`, naming the category and where, never the value). An
 * injection the scanner is sure of blocks unless the policy says `flag`; one it only
 * suspects is flagged: forwarded and reported. Personal data is replaced by typed
 * placeholders (`[EMAIL_1]`) before forwarding, or blocks. `x-gw-security` reports
 * what was found and what was done.
 */
import type { ScanMark, ScanReport } from "../domain/scan-policy.ts";
import { DEFAULT_ORG_PREFERENCES, type PiiAction, type ScanPolicy } from "../domain/types.ts";
import { ApiError } from "../lib/errors.ts";
import type { ScanFn } from "./scan-cache.ts";
import { type Finding, scanText } from "./scan/engine.ts";
import type { TextSlot } from "./scan/request-texts.ts";

export interface ScanVerdict {
  /** The body to forward: the original, or a redacted copy. */
  body: Record<string, unknown>;
  /** `x-gw-security` value. */
  header: string;
  report: ScanReport;
  flags: ScanMark[];
}

const DESCRIBE = { secret: "a credential", injection: "a prompt-injection attempt", pii: "personal data" } as const;

/**
 * `secret=N; injection=N|flagged; pii=N[; redacted=N][; unscanned=N]` (docs/scanning.md):
 * what was found, and what was done beside the answer's own status (a 400
 * `security_violation` names the category that refused it).
 */
export function securityHeader(r: ScanReport): string {
  const injection = r.injectionFlagged && r.blocked !== "injection" ? "flagged" : String(r.injection);
  let h = `secret=${r.secret}; injection=${injection}; pii=${r.pii}`;
  if (r.redacted) h += `; redacted=${r.redacted}`;
  if (r.unscanned) h += `; unscanned=${r.unscanned}`;
  return h;
}

/** A refused call: the 400 the caller gets, with what the scan found for the audit log (never values). */
export class SecurityViolation extends ApiError {
  constructor(
    readonly block: ScanMark,
    readonly report: ScanReport,
    /** Injections flagged before the block was found (forwarded nowhere, but seen). */
    readonly flags: ScanMark[] = [],
  ) {
    const kinds = [...new Set(block.kinds)];
    super(
      400,
      "security_violation",
      `Blocked by security scanning: ${block.path} contains ${DESCRIBE[block.category]} (${kinds.join(", ")}).`,
      {
        param: block.path,
        details: { category: block.category, kinds },
        headers: { "x-gw-security": securityHeader(report) },
      },
    );
  }
}

/** Where a slot is: the path for the answer, the safe path for the audit log. */
const at = (slot: TextSlot): { path: string; where: string } => ({ path: slot.path, where: slot.where });

/**
 * Scans `body` through `texts` (which walks a format's texts) under `policy` (a bare
 * PII action stands for the default policy with it). Throws on a block; returns the body
 * to forward. Redaction works on a copy, so the caller's object is never changed. `scan`
 * reads one text (scan-cache.ts: a verdict kept per text); the policy is applied here,
 * after it, so a text's kept verdict meets the policy of the moment.
 */
export function scanRequest(
  body: Record<string, unknown>,
  texts: (body: Record<string, unknown>) => TextSlot[],
  policy: ScanPolicy | PiiAction,
  phoneRegion?: string,
  scan: ScanFn = scanText,
): ScanVerdict {
  const { injection: injectionAction, pii: piiAction } =
    typeof policy === "string" ? { ...DEFAULT_ORG_PREFERENCES.security, pii: policy } : policy;
  const slots = texts(body);
  const report: ScanReport = { secret: 0, injection: 0, injectionFlagged: false, pii: 0, redacted: 0, unscanned: 0, blocked: null };
  const flags: ScanMark[] = [];
  const pii: { slot: number; findings: Finding[] }[] = [];
  let blocked: ScanMark | null = null;
  slots.forEach((slot, i) => {
    if (slot.unread) {
      report.unscanned++;
      return;
    }
    const read = scan(slot.text, { injection: slot.injection, phoneRegion });
    const joins = slot.joins;
    // A joined slot adds only what its parts alone could not show: findings across a seam.
    const findings = joins ? read.findings.filter((f) => joins.some((j) => f.start < j && j < f.end)) : read.findings;
    const secrets = findings.filter((f) => f.category === "secret");
    // Injection is judged over the whole text: a joined slot is judged whole.
    const injections = (joins ? findings : read.findings).filter((f) => f.category === "injection");
    const personal = findings.filter((f) => f.category === "pii");
    report.secret += secrets.length;
    report.pii += personal.length;
    const sure = read.injectionConfidence === "high";
    if (sure) report.injection += injections.length;
    if (!blocked && secrets.length) blocked = { category: "secret", kinds: secrets.map((f) => f.kind), ...at(slot) };
    if (sure && injectionAction === "block") {
      if (!blocked)
        blocked = {
          category: "injection",
          kinds: read.findings.filter((f) => f.category === "injection").map((f) => f.kind),
          ...at(slot),
        };
    } else if (read.injectionConfidence !== null) {
      report.injectionFlagged = true;
      const kinds = read.findings.filter((f) => f.category === "injection").map((f) => f.kind);
      flags.push({ category: "injection", ...at(slot), kinds: kinds.length ? [...new Set(kinds)] : ["classifier"] });
    }
    // Personal data split across parts cannot be replaced in place, so it blocks.
    if (personal.length && joins && !blocked) blocked = { category: "pii", kinds: personal.map((f) => f.kind), ...at(slot) };
    else if (personal.length) pii.push({ slot: i, findings: personal });
  });
  if (!blocked && pii.length && piiAction === "block") {
    const first = pii[0] as { slot: number; findings: Finding[] };
    blocked = { category: "pii", kinds: pii.flatMap((p) => p.findings.map((f) => f.kind)), ...at(slots[first.slot] as TextSlot) };
  }
  if (blocked) {
    const b = blocked as ScanMark;
    report.blocked = b.category;
    throw new SecurityViolation({ ...b, kinds: [...new Set(b.kinds)] }, report, flags);
  }
  if (!pii.length) return { body, header: securityHeader(report), report, flags };
  report.redacted = report.pii;
  return { body: redacted(body, texts, pii), header: securityHeader(report), report, flags };
}

/** A copy of the body with each personal value replaced by its typed placeholder (one number per distinct value). */
function redacted(
  body: Record<string, unknown>,
  texts: (body: Record<string, unknown>) => TextSlot[],
  pii: { slot: number; findings: Finding[] }[],
): Record<string, unknown> {
  const copy = structuredClone(body);
  const slots = texts(copy);
  const numbers = new Map<string, string>();
  const perKind = new Map<string, number>();
  const placeholder = (kind: string, value: string) => {
    const id = `${kind}\u0000${value}`;
    let p = numbers.get(id);
    if (!p) {
      const n = (perKind.get(kind) ?? 0) + 1;
      perKind.set(kind, n);
      p = `[${kind}_${n}]`;
      numbers.set(id, p);
    }
    return p;
  };
  for (const { slot, findings } of pii) {
    const s = slots[slot] as TextSlot;
    let out = "";
    let at = 0;
    for (const f of [...findings].sort((a, b) => a.start - b.start)) {
      if (f.start < at) continue;
      out += s.text.slice(at, f.start) + placeholder(f.kind, s.text.slice(f.start, f.end));
      at = f.end;
    }
    s.set?.(out + s.text.slice(at));
  }
  return copy;
}
