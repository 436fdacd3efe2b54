/** Every route of the gateway's route table (src/http/app.ts), and every `x-gw-*` header, is in docs/api.md. */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { codeSpans, page, ROOT, sourceFiles, spans, tableRows } from "./doc-pages.ts";


const appSource = readFileSync(join(ROOT, "src/http/app.ts"), "utf8");
/** `{ method: "GET", path: "/healthz", … }`; the MCP route gives its methods as a list before its path. */
const routes = [
  ...[...appSource.matchAll(/method: "([A-Z]+)",\s*path: "([^"]+)"/g)].map((m) => `${m[1]} ${m[2]}`),
  ...[...appSource.matchAll(/\(\[((?:"[A-Z]+",?\s*)+)\] as const\)\.map\([\s\S]*?path: "([^"]+)"/g)].flatMap((m) =>
    [...m[1]!.matchAll(/"([A-Z]+)"/g)].map((method) => `${method[1]} ${m[2]}`),
  ),
];

/** `GET /a/{b,c/:d}` written once for several paths, as each path; `{id}` as the route table's `:id`. */
function expand(span: string): string[] {
  const group = /\{([^{}]*,[^{}]*)\}/.exec(span);
  if (group) return group[1]!.split(",").flatMap((alt) => expand(span.replace(group[0], alt)));
  return [span.replace(/\{(\w+)\}/g, ":$1")];
}

test("every route is in docs/api.md", () => {
  expect(routes.length).toBeGreaterThan(25);
  const documented = new Set(codeSpans(page("docs/api.md")).flatMap(expand));
  expect(routes.filter((r) => !documented.has(r))).toEqual([]);
});

test("every x-gw-* header the source reads or sends is in docs/api.md's table, and every one there is the source's", () => {
  const source = sourceFiles().flatMap((f) => readFileSync(f, "utf8").toLowerCase().match(/\bx-gw-[a-z-]*[a-z]/g) ?? []);
  const inSource = new Set(source);
  const rows = tableRows(page("docs/api.md"), "header").flatMap((r) => spans(r.header!));
  expect([...inSource].filter((h) => !rows.includes(h)).sort()).toEqual([]);
  expect(rows.filter((h) => !inSource.has(h))).toEqual([]);
});
