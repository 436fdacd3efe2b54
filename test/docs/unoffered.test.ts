/** docs/client-surface.md's table of endpoints left out is src/http/surfaces/unoffered-endpoints.ts's, path by path. */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { unofferedEndpoint } from "../../src/http/surfaces/unoffered-endpoints.ts";
import { page, ROOT, spans, tableRows } from "./doc-pages.ts";

const documented = tableRows(page("docs/client-surface.md"), "path (and everything under it)").flatMap((r) =>
  spans(r["path (and everything under it)"]!).filter((s) => s.startsWith("/")),
);
/** `/v1/responses/{id}` is the source's prefix `/v1/responses/`: everything under the create path. */
const asPrefix = (path: string) => path.replace(/\{id\}$/, "");

test("every path the table lists answers with its reason", () => {
  expect(documented.length).toBeGreaterThan(10);
  expect(documented.filter((p) => unofferedEndpoint(p.replace("{id}", "resp_1")) === null)).toEqual([]);
});

test("every path the source leaves out is in the table", () => {
  const source = readFileSync(join(ROOT, "src/http/surfaces/unoffered-endpoints.ts"), "utf8");
  const prefixes = [...source.matchAll(/"(\/v1\/[\w/]+)"/g)].map((m) => m[1]!);
  expect(prefixes.filter((p) => !documented.map(asPrefix).includes(p))).toEqual([]);
});
