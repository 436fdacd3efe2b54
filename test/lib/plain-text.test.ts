/** The one plain-text rule: its RegExp and its schema pattern agree, and quoting escapes what a terminal would run. */
import { expect, test } from "bun:test";
import { escapedControls, isPlainText, PLAIN_TEXT_PATTERN, quotedSafely } from "../../src/lib/plain-text.ts";

const pattern = new RegExp(PLAIN_TEXT_PATTERN);

test("every control character and bidirectional override is refused, by the check and by the schema pattern alike", () => {
  const refused = [0x00, 0x07, 0x0a, 0x0d, 0x1b, 0x7f, 0x85, 0x9b, 0x202a, 0x202e, 0x2066, 0x2069];
  for (const code of refused) {
    const text = `name${String.fromCharCode(code)}x`;
    expect(isPlainText(text)).toBe(false);
    expect(pattern.test(text)).toBe(false);
  }
  for (const text of ["Acme GmbH", "日本語の名前", "emoji 🚀", 'tab-free, quote " and ü', ""]) {
    expect(isPlainText(text)).toBe(true);
    expect(pattern.test(text)).toBe(true);
  }
});

test("quoting cuts long text and escapes controls and overrides", () => {
  expect(quotedSafely("a\u001b[2Jb")).toBe('"a\\u001b[2Jb"');
  expect(quotedSafely("x\u202Ey\u009b")).toBe('"x\\u202ey\\u009b"');
  expect(quotedSafely("z".repeat(100))).toBe(`"${"z".repeat(40)}…"`);
});

test("escaping names every control and override by its code, and leaves the rest as it is", () => {
  expect(escapedControls("a\u001b]0;x\u0007 ü \u202e")).toBe("a\\u001b]0;x\\u0007 ü \\u202e");
});
