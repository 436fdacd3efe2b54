/**
 * docs/configuration.md's model catalog and docs/api.md's provider kinds are the catalog's:
 * every catalog file example applies to the built-in catalog as the page says, and the
 * kinds listed are src/providers/catalog/provider-kinds.ts's.
 */
import { expect, test } from "bun:test";
import { Catalog } from "../../src/providers/catalog/catalog.ts";
import { PROVIDER_KINDS } from "../../src/providers/catalog/provider-kinds.ts";
import { page } from "./doc-pages.ts";

test("docs/api.md lists every provider kind, in the catalog's order", () => {
  const text = page("docs/api.md");
  const sentence = /Provider kinds come from the catalog: ([^.]+)\./.exec(text.replace(/\n/g, " "));
  expect(sentence).not.toBeNull();
  expect([...sentence![1]!.matchAll(/`([a-z0-9-]+)`/g)].map((m) => m[1])).toEqual([...PROVIDER_KINDS]);
});

test("every catalog file example in docs/configuration.md applies to the built-in catalog", () => {
  const text = page("docs/configuration.md");
  const section = text.slice(text.indexOf("## The model catalog"), text.indexOf("## Command line"));
  const examples = [...section.matchAll(/^```json\n([\s\S]*?)^```$/gm)].map((m) => JSON.parse(m[1]!));
  expect(examples.length).toBeGreaterThanOrEqual(3);
  for (const example of examples) expect(() => Catalog.builtIn().withOverrides(example)).not.toThrow();
});
