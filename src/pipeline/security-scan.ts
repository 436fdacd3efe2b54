/**
 * Stage 6: mandatory security scanning of every text a call sends. Credentials and
 * prompt injection always block (400 `security_violation`, naming the category and
 * where, never the value). Personal data is replaced by typed placeholders
 * (`[EMAIL_1]`) before forwarding, or blocks, per the organization's `piiAction`.
 * The `x-gw-security` header reports counts by category.
 */
import type { PiiAction } from "../domain/types.ts";
import { ApiError } from "../lib/errors.ts";
import { type Finding, INJECTION_THRESHOLD, scanText } from "./scan/engine.ts";
import type { TextSlot } from "./scan/request-texts.ts";

export interface ScanVerdict {
  /** The body to forward: the original, or a redacted copy. */
  body: Record<string, unknown>;
  /** `x-gw-security` value: counts by category, never values. */
  header: string;
}

const DESCRIBE = { secret: "a credential", injection: "a prompt-injection attempt", pii: "personal data" } as const;

function header(counts: { secret: number; injection: number; pii: number }, redacted: number): string {
  return `secret=${counts.secret}; injection=${counts.injection}; pii=${counts.pii}${redacted ? `; redacted=${redacted}` : ""}`;
}

function violation(category: keyof typeof DESCRIBE, kinds: string[], path: string, h: string): ApiError {
  return new ApiError(
    400,
    "security_violation",
    `Blocked by security scanning: ${path} contains ${DESCRIBE[category]} (${[...new Set(kinds)].join(", ")}).`,
    {
      param: path,
      details: { category, kinds: [...new Set(kinds)] },
      headers: { "x-gw-security": h },
    },
  );
}

/**
 * Scans `body` through `texts` (which walks a format's texts). Throws on a block; returns
 * the body to forward. Redaction works on a copy, so the caller's object is never changed.
 */
export function scanRequest(
  body: Record<string, unknown>,
  texts: (body: Record<string, unknown>) => TextSlot[],
  piiAction: PiiAction,
  phoneRegion?: string,
): ScanVerdict {
  const slots = texts(body);
  const counts = { secret: 0, injection: 0, pii: 0 };
  const pii: { slot: number; findings: Finding[] }[] = [];
  let blocked: { category: keyof typeof DESCRIBE; kinds: string[]; path: string } | null = null;
  slots.forEach((slot, i) => {
    const scan = scanText(slot.text, { injection: slot.injection, phoneRegion });
    const joins = slot.joins;
    // A joined slot adds only what its parts alone could not show: findings across a seam.
    const findings = joins ? scan.findings.filter((f) => joins.some((j) => f.start < j && j < f.end)) : scan.findings;
    const injectionScore = scan.injectionScore;
    const secrets = findings.filter((f) => f.category === "secret");
    // Injection is a score over the whole text: a joined slot is judged whole.
    const injections = scan.findings.filter((f) => f.category === "injection");
    const personal = findings.filter((f) => f.category === "pii");
    counts.secret += secrets.length;
    counts.pii += personal.length;
    if (injectionScore >= INJECTION_THRESHOLD)
      counts.injection += joins ? findings.filter((f) => f.category === "injection").length : injections.length;
    if (!blocked && secrets.length) blocked = { category: "secret", kinds: secrets.map((f) => f.kind), path: slot.path };
    if (!blocked && injectionScore >= INJECTION_THRESHOLD)
      blocked = { category: "injection", kinds: injections.map((f) => f.kind), path: slot.path };
    // Personal data split across parts cannot be replaced in place, so it blocks.
    if (personal.length && joins && !blocked) blocked = { category: "pii", kinds: personal.map((f) => f.kind), path: slot.path };
    else if (personal.length) pii.push({ slot: i, findings: personal });
  });
  if (!blocked && pii.length && piiAction === "block") {
    const first = pii[0] as { slot: number; findings: Finding[] };
    blocked = { category: "pii", kinds: pii.flatMap((p) => p.findings.map((f) => f.kind)), path: (slots[first.slot] as TextSlot).path };
  }
  if (blocked) {
    const b = blocked as { category: keyof typeof DESCRIBE; kinds: string[]; path: string };
    throw violation(b.category, b.kinds, b.path, header(counts, 0));
  }
  if (!pii.length) return { body, header: header(counts, 0) };
  return { body: redacted(body, texts, pii), header: header(counts, counts.pii) };
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
