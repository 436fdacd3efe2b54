/**
 * docs/api.md's error table is the gateway's codes: every code of src/lib/errors.ts has a
 * row, every row is a code, each status the source gives a code is the row's, and every
 * code is one the source answers with somewhere (a table row for a code nothing raises
 * tells a client to handle what never comes).
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { page, ROOT, sourceFiles, spans, tableRows } from "./doc-pages.ts";

const errorsSource = readFileSync(join(ROOT, "src/lib/errors.ts"), "utf8");
const union = /export type ErrorCode =([\s\S]*?);/.exec(errorsSource)![1]!;
const CODES = [...union.matchAll(/"([a-z_]+)"/g)].map((m) => m[1]!);

const rows = tableRows(page("docs/api.md"), "code");
const documented = new Map(rows.flatMap((r) => spans(r.code!).map((code) => [code, r.status!] as const)));


test("every error code has its row in docs/api.md, and every row is a code", () => {
  expect(CODES.length).toBeGreaterThan(20);
  expect(CODES.filter((c) => !documented.has(c))).toEqual([]);
  expect([...documented.keys()].filter((c) => !CODES.includes(c))).toEqual([]);
});

test("each status the source answers a code with is the one its row gives", () => {
  // `new ApiError(429, "rate_limit_exceeded", …)` and an ApiError subclass's `super(499, "client_closed_request", …)`.
  const given = sourceFiles().flatMap((f) =>
    [...readFileSync(f, "utf8").matchAll(/(?:new ApiError|super)\(\s*(\d{3}),\s*"([a-z_]+)"/g)].map((m) => ({ status: m[1]!, code: m[2]! })),
  );
  expect(given.length).toBeGreaterThan(20);
  const wrong = given.filter(({ status, code }) => !(documented.get(code) ?? "").split(/,\s*/).includes(status));
  expect([...new Set(wrong.map((w) => `${w.code} ${w.status}`))]).toEqual([]);
});

test("every error code is raised somewhere in src/", () => {
  // Every file, errors.ts's helpers included (`unauthorized()`), but not the union that declares the codes.
  const raised = sourceFiles()
    .map((f) => readFileSync(f, "utf8").replace(union, ""))
    .join("\n");
  expect(CODES.filter((c) => !raised.includes(`"${c}"`))).toEqual([]);
});
