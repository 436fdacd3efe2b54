/**
 * The credential and personal-data evaluation (scanner/evaluate-detectors.ts,
 * pii-heldout.ts): the held-out sets are fixed and split before any tuning, benign
 * rows of the pools and the held-out look-alikes draw no finding, and the held-out
 * figures docs/scanner.md reports do not slip.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { byKind, evaluate, heldOutRows } from "../../scanner/evaluate-detectors.ts";
import { piiHeldOutRows } from "../../scanner/pii-heldout.ts";
import { scanText } from "../../src/pipeline/scan/engine.ts";

const jsonl = (file: string) =>
  readFileSync(join(import.meta.dir, "../../scanner/data", file), "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { id: string; category: string; text: string; split?: string });

test("the generated personal-data set is the same on every run, in two halves of both kinds of row", () => {
  const a = piiHeldOutRows();
  expect(piiHeldOutRows().map((r) => r.text)).toEqual(a.map((r) => r.text));
  for (const half of ["tune", "held-out"])
    for (const kind of ["email", "card", "iban", "ssn", "phone"])
      expect(a.filter((r) => r.half === half && r.kind === kind).length).toBeGreaterThan(10);
});

test("every held-out credential row names its half, source license and reference", () => {
  for (const r of jsonl("secrets-heldout.jsonl") as Record<string, string>[]) {
    expect(["tune", "held-out"]).toContain(r.split ?? "");
    // LGPL-3.0 (sonar-text's specifications) as evaluation data only: read by the evaluation, never shipped or used by a rule.
    expect(r.license).toMatch(/^(?:MIT|Apache-2\.0|LGPL-3\.0)$/);
    expect(r.ref).toMatch(/^[\w.-]+\/[\w.-]+@[0-9a-f]{8}:/);
  }
});

test("no benign row of the second pool draws a secret finding", () => {
  const flagged = jsonl("train-v2.jsonl").filter(
    (r) => r.category === "benign" && scanText(r.text, { injection: false }).findings.some((f) => f.category === "secret"),
  );
  expect(flagged.map((r) => r.id)).toEqual([]);
});

test("held-out look-alikes (order numbers, dates, versions, tracking codes) stay unflagged in their region", () => {
  const flagged = piiHeldOutRows().filter(
    (r) => r.category === "benign" && scanText(r.text, { injection: false, phoneRegion: r.region }).findings.length > 0,
  );
  expect(flagged.map((r) => r.text)).toEqual([]);
});

test("held-out figures: credentials blocked at least 70%, e-mails, cards, IBANs and SSNs 100%, phone numbers at least 90%, all claimed personal data at least 97%", () => {
  const lines = evaluate(heldOutRows().filter((r) => "split" in r && r.split === "held-out" && r.category === "secret"));
  const rows = lines.reduce((n, l) => n + l.rows, 0);
  expect(lines.reduce((n, l) => n + l.hit, 0) / rows).toBeGreaterThanOrEqual(0.7);
  const pii = byKind(piiHeldOutRows()).filter((l) => l.heldOut === "yes");
  for (const l of pii) expect([l.category, l.hit / l.rows >= (l.category === "phone" ? 0.9 : 1)]).toEqual([l.category, true]);
  // The bar for the claimed types together.
  expect(pii.reduce((n, l) => n + l.hit, 0) / pii.reduce((n, l) => n + l.rows, 0)).toBeGreaterThanOrEqual(0.97);
});
