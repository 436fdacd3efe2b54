/** A header value: printable ASCII as it is, anything else percent-encoded whole (what `/^[\x20-\x7e]*$/` decided before). */
import { describe, expect, test } from "bun:test";
import { headerValue } from "../../src/lib/header-value.ts";

describe("headerValue", () => {
  test("printable ASCII passes untouched, the empty string too", () => {
    expect(headerValue("openai/gpt-4o-mini")).toBe("openai/gpt-4o-mini");
    expect(headerValue(" ~!\"#$%&'()*+,-./09:;<=>?@AZ[\\]^_`az{|}")).toBe(" ~!\"#$%&'()*+,-./09:;<=>?@AZ[\\]^_`az{|}");
    expect(headerValue("")).toBe("");
  });

  test("a control character, a line break, DEL or anything past ASCII percent-encodes the whole value", () => {
    for (const bad of ["a\nb", "x\r\nSet-Cookie: y", "tab\there", "del\x7f", "caf\u00e9", "\u4e2d\u6587", "nul\0"]) {
      const out = headerValue(bad);
      expect(out).toBe(encodeURIComponent(bad));
      expect(out).toMatch(/^[\x20-\x7e]*$/);
      expect(new Headers({ v: out }).get("v")).toBe(out);
    }
  });

  test("agrees with the expression it replaced on every character from NUL to past Latin-1", () => {
    for (let c = 0; c < 0x180; c++) {
      const s = `a${String.fromCharCode(c)}z`;
      expect(headerValue(s)).toBe(/^[\x20-\x7e]*$/.test(s) ? s : encodeURIComponent(s));
    }
  });
});
