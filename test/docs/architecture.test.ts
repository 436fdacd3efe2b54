/**
 * docs/architecture.md's layers are src/'s: every top-level folder and file of src/ is
 * named, in the order test/architecture/layers.test.ts enforces.
 */
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { page, ROOT } from "./doc-pages.ts";

/** `cli.ts` is the `cli` layer's entry point, `config.ts` the `config` layer. */
const entries = [...new Set(readdirSync(join(ROOT, "src")).map((n) => n.replace(/\.ts$/, "")))];

test("docs/architecture.md names src/'s layers in the order the layers test enforces", () => {
  const text = page("docs/architecture.md");
  const paragraph = text.slice(text.indexOf("Imports flow one way"), text.indexOf("`test/` mirrors"));
  const named = [...paragraph.matchAll(/`([\w-]+)`/g)].map((m) => m[1]!).filter((n) => entries.includes(n));
  const layersTest = readFileSync(join(ROOT, "test/architecture/layers.test.ts"), "utf8");
  const layers = /const LAYERS[^=]*= \[([\s\S]*?)\n\];/.exec(layersTest)![1]!;
  const enforced = [...layers.matchAll(/"([\w-]+)"/g)].map((m) => m[1]!);
  expect(named).toEqual(enforced);
  expect(entries.filter((e) => !named.includes(e))).toEqual([]);
});
