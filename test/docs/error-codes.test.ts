/**
 * docs/api.md's error table is the gateway's codes: every code of src/lib/errors.ts has a
 * row, every row is a code, and each status the source gives a code is the row's.
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
