/**
 * What the scanner finds in a set of texts, summed per category, and redaction of the
 * findings by typed placeholders (`[EMAIL_1]`, one number per distinct value, so the
 * model still sees that two mentions are the same). Values never leave this module.
 */
import { type Finding, INJECTION_THRESHOLD, scanText } from "../pipeline/scan/engine.ts";
import type { StringSlot } from "./json-strings.ts";

export type Category = "secret" | "injection" | "pii";

export interface SlotFindings {
  slot: StringSlot;
  findings: Finding[];
}

export interface TextsScan {
  counts: Record<Category, number>;
  /** Kinds found per category (`EMAIL`, `aws_access_key`), for audit and messages. */
  kinds: Record<Category, string[]>;
  /** Where the first finding of each category is. */
  firstPath: Partial<Record<Category, string>>;
  /** An injection the scanner only suspects (medium confidence: between the classifier's flag and block thresholds): flagged, never blocked. */
  suspected: boolean;
  /** Credential and personal-data findings by slot, for redaction. */
  bySlot: SlotFindings[];
}

/**
 * Scans every slot; injection only when asked (a tool's result, not the model's own
 * arguments); phone numbers without `+` read as numbers of `phoneRegion`.
 */
export function scanSlots(slots: StringSlot[], injection: boolean, phoneRegion: string): TextsScan {
  const scan: TextsScan = {
    counts: { secret: 0, injection: 0, pii: 0 },
    kinds: { secret: [], injection: [], pii: [] },
    firstPath: {},
    suspected: false,
    bySlot: [],
  };
  for (const slot of slots) {
    const { findings, injectionScore, injectionConfidence } = scanText(slot.text, { injection, phoneRegion });
    const kept = findings.filter((f) => f.category !== "injection" || injectionScore >= INJECTION_THRESHOLD);
    if (injectionConfidence === "medium") scan.suspected = true;
    for (const f of kept) {
      scan.counts[f.category] += 1;
      if (!scan.kinds[f.category].includes(f.kind)) scan.kinds[f.category].push(f.kind);
      scan.firstPath[f.category] ??= slot.path;
    }
    const replaceable = kept.filter((f) => f.category !== "injection");
    if (replaceable.length) scan.bySlot.push({ slot, findings: replaceable });
  }
  return scan;
}

/** Replaces the findings of `categories` in their slots with placeholders; returns how many values were replaced. */
export function redactFindings(bySlot: SlotFindings[], categories: readonly Category[]): number {
  const numbers = new Map<string, string>();
  const perKind = new Map<string, number>();
  let replaced = 0;
  const placeholderFor = (kind: string, value: string): string => {
    const id = `${kind}\u0000${value}`;
    const known = numbers.get(id);
    if (known) return known;
    const n = (perKind.get(kind) ?? 0) + 1;
    perKind.set(kind, n);
    const made = `[${kind.toUpperCase()}_${n}]`;
    numbers.set(id, made);
    return made;
  };
  for (const { slot, findings } of bySlot) {
    const chosen = findings.filter((f) => categories.includes(f.category as Category)).sort((a, b) => a.start - b.start);
    if (!chosen.length) continue;
    let text = "";
    let at = 0;
    for (const f of chosen) {
      if (f.start < at) continue;
      text += slot.text.slice(at, f.start) + placeholderFor(f.kind, slot.text.slice(f.start, f.end));
      at = f.end;
      replaced += 1;
    }
    slot.set(text + slot.text.slice(at));
  }
  return replaced;
}
