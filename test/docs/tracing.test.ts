/**
 * docs/observability.md's span table is what the tracing code writes: every attribute it
 * names is one the source sets, and every `gw.<stage>` span is a stage of the pipeline
 * (the stage runner names each span after its stage).
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { page, sourceFiles, spans, tableRows } from "./doc-pages.ts";

const source = sourceFiles()
  .map((f) => readFileSync(f, "utf8"))
  .join("\n");
const rows = tableRows(page("docs/observability.md"), "span");
const ATTRIBUTE = /^(?:gw|gen_ai|http|server|error)\.[a-z_.]*[a-z]$/;

test("every span attribute the table names is one the source sets", () => {
  const attributes = rows.flatMap((r) => spans(r.attributes!)).filter((a) => ATTRIBUTE.test(a));
  expect(attributes.length).toBeGreaterThan(20);
  expect(attributes.filter((a) => !source.includes(`"${a}"`))).toEqual([]);
});

test("every stage span the table and the tree name is a pipeline stage", () => {
  const stages = new Set([...source.matchAll(/\bname: "([a-z-]+)",/g)].map((m) => m[1]!));
  const text = page("docs/observability.md");
  const named = [...rows.flatMap((r) => spans(r.span!)), ...(text.match(/─ gw\.[a-z-]+/g) ?? []).map((s) => s.slice(2))];
  const stageSpans = named.filter((s) => /^gw\.[a-z-]+$/.test(s));
  expect(stageSpans.length).toBeGreaterThan(3);
  expect(stageSpans.filter((s) => !stages.has(s.slice(3)))).toEqual([]);
});
