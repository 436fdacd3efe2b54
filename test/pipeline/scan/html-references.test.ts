/** HTML character references (html-references.ts): numeric and named ones decoded, ordinary ampersands left alone. */
import { expect, test } from "bun:test";
import { referenceAt } from "../../../src/pipeline/scan/html-references.ts";

test.each([
  ["&#105;gnore", "i", 6],
  ["&#105gnore", "i", 5],
  ["&#x69;", "i", 6],
  ["&#X49;", "I", 6],
  ["&lt;|im_start|&gt;", "<", 4],
  ["&vert;", "|", 6],
  ["&amp;lt;", "&", 5],
  ["&#65313;", "Ａ", 8],
] as [string, string, number][])("%p opens a reference to %p, %p characters long", (text, decoded, end) => {
  expect(referenceAt(text, 0)).toEqual({ decoded, end });
});

test.each(["R&D", "AT&T", "&copy 2026", "&notanentity;", "&#;", "&#x;", "&ab;", "& x", "&"])("%p opens none", (text) => {
  expect(referenceAt(text, 0)).toBeNull();
});
