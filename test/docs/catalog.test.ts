/** The provider kinds docs/api.md lists are the catalog's (src/providers/catalog/provider-kinds.ts). */
import { expect, test } from "bun:test";
import { PROVIDER_KINDS } from "../../src/providers/catalog/provider-kinds.ts";
import { page } from "./doc-pages.ts";

test("docs/api.md lists every provider kind, in the catalog's order", () => {
  const text = page("docs/api.md");
  const sentence = /Provider kinds come from the catalog: ([^.]+)\./.exec(text.replace(/\n/g, " "));
  expect(sentence).not.toBeNull();
  expect([...sentence![1]!.matchAll(/`([a-z0-9-]+)`/g)].map((m) => m[1])).toEqual([...PROVIDER_KINDS]);
});
