/**
 * docs/observability.md's metrics table covers every metric the gateway registers (by name
 * or a `prefix_*` row), and every name or prefix it lists is one the gateway registers.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { page, sourceFiles, spans, tableRows } from "./doc-pages.ts";


/** Names given to the registry's metric classes, and to provider-health-metrics.ts's `series` helper. */
const registered = new Set(
  sourceFiles().flatMap((f) =>
    [...readFileSync(f, "utf8").matchAll(/(?:new (?:Counter|Gauge|Histogram)|\bseries)\(\s*"([a-z_]+)"/g)].map((m) => m[1]!),
  ),
);

const listed = tableRows(page("docs/observability.md"), "metric").flatMap((r) => spans(r.metric!));
const matches = (name: string, entry: string) => (entry.endsWith("*") ? name.startsWith(entry.slice(0, -1)) : name === entry);

test("every metric the gateway registers is in docs/observability.md's table", () => {
  expect(registered.size).toBeGreaterThan(30);
  expect([...registered].filter((name) => !listed.some((entry) => matches(name, entry))).sort()).toEqual([]);
});

test("every metric docs/observability.md's table lists is registered", () => {
  expect(listed.filter((entry) => ![...registered].some((name) => matches(name, entry)))).toEqual([]);
});
