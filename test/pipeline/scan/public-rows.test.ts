/**
 * Secrets and personal data on public rows nobody on the project wrote
 * (scanner/data/train.jsonl: gitleaks' rule true positives, presidio's recognizer
 * tests). The rules are not trained on them, so every row is held out. Personal data
 * is judged on the types the scanner claims (e-mail, phone, card, IBAN, SSN); the
 * other national identifiers in presidio's tests are out of scope and reported only.
 * Figures: docs/scanner.md (`bun scanner/report.ts`).
 */
import { expect, test } from "bun:test";
import { loadRows, type Row } from "../../../scanner/train.ts";
import { scanText } from "../../../src/pipeline/scan/engine.ts";

const CLAIMED_PII = new Set(["presidio:EMAIL", "presidio:PHONE", "presidio:CARD", "presidio:IBAN", "presidio:us_ssn"]);
const publicRows = loadRows().filter((r) => !r.source.startsWith("project/")) as (Row & { kind: string })[];
const found = (r: Row, category: "secret" | "pii") => scanText(r.text, { injection: false }).findings.some((f) => f.category === category);

test("personal data of the claimed types: recall at least 0.95", () => {
  const rows = publicRows.filter((r) => r.category === "pii" && CLAIMED_PII.has(r.kind));
  expect(rows.length).toBeGreaterThan(20);
  expect(rows.filter((r) => found(r, "pii")).length / rows.length).toBeGreaterThanOrEqual(0.95);
});

test("secrets: recall at least 0.95 (the rows missed, and why, in docs/scanner.md)", () => {
  const rows = publicRows.filter((r) => r.category === "secret");
  expect(rows.length).toBeGreaterThan(40);
  expect(rows.filter((r) => found(r, "secret")).length / rows.length).toBeGreaterThanOrEqual(0.95);
});

test("benign public rows carry no secret finding (personal data in them is real: a cover letter's phone is redacted, not blocked)", () => {
  const flagged = publicRows.filter((r) => r.category === "benign" && found(r, "secret"));
  expect(flagged.map((r) => r.id)).toEqual([]);
});
