/** HTML character references (html-references.ts): numeric and named ones decoded, ordinary ampersands left alone. */
import { expect, test } from "bun:test";
import { referenceAt } from "../../../src/pipeline/scan/html-references.ts";

test.each([
  ["&#105;gnore", "i", 6, true],
  ["&#105gnore", "i", 5, true],
  ["&#x69;", "i", 6, true],
  ["&#X49;", "I", 6, true],
  ["&lt;|im_start|&gt;", "<", 4, true],
  ["&vert;", "|", 6, true],
  ["&#65313;", "Ａ", 8, true],
  ["&amp;lt;", "&", 5, false],
  ["&#39;s", "'", 5, false],
  ["&nbsp;", "\u00a0", 6, false],
] as [string, string, number, boolean][])(
  "%p opens a reference to %p, %p characters long (hiding a word's character: %p)",
  (text, decoded, end, hides) => {
    expect(referenceAt(text, 0)).toEqual({ decoded, end, hides });
  },
);

test.each(["R&D", "AT&T", "&copy 2026", "&notanentity;", "&#;", "&#x;", "&ab;", "& x", "&"])("%p opens none", (text) => {
  expect(referenceAt(text, 0)).toBeNull();
});
