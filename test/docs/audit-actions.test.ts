/**
 * docs/operations.md's audit action table is src/domain/audit-actions.ts: the same names
 * with the same meanings, and every name one the source writes (a documented action that
 * is never recorded would have a reader wait for an entry that never comes).
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { AUDIT_ACTIONS } from "../../src/domain/audit-actions.ts";
import { page, sourceFiles, spans, tableRows } from "./doc-pages.ts";

const documented = tableRows(page("docs/operations.md"), "action").map((r) => ({ action: spans(r.action!), meaning: r.meaning! }));

test("the documented actions are the table's, in its order, each with its meaning", () => {
  expect(documented.every((d) => d.action.length === 1)).toBe(true);
  expect(documented.map((d) => [d.action[0], d.meaning])).toEqual(Object.entries(AUDIT_ACTIONS));
});

test("every action of the table is written somewhere in src/", () => {
  const source = sourceFiles()
    .filter((f) => !f.endsWith("audit-actions.ts"))
    .map((f) => readFileSync(f, "utf8"))
    .join("\n");
  expect(Object.keys(AUDIT_ACTIONS).filter((a) => !source.includes(`"${a}"`))).toEqual([]);
});
