import { describe, expect, test } from "bun:test";
import { keyHint, SecretBox } from "../../src/lib/secret-box.ts";

const box = new SecretBox(new Uint8Array(32).fill(7));

describe("SecretBox", () => {
  test("round trip; every seal uses a fresh nonce", () => {
    const a = box.seal("sk-proj-secret", "prv_1");
    expect(box.open(a, "prv_1")).toBe("sk-proj-secret");
    expect(box.seal("sk-proj-secret", "prv_1")).not.toBe(a);
    expect(a).not.toContain("secret");
  });

  test("tampering, another key or another record's data do not open", () => {
    const sealed = box.seal("value", "prv_1");
    const raw = Buffer.from(sealed, "base64");
    for (let i = 1; i < raw.length; i++) {
      const t = Buffer.from(raw);
      t[i] = (t[i] as number) ^ 1;
      expect(() => box.open(t.toString("base64"), "prv_1")).toThrow();
    }
    expect(() => new SecretBox(new Uint8Array(32).fill(8)).open(sealed, "prv_1")).toThrow("does not open");
    expect(() => box.open(sealed, "prv_2")).toThrow("does not open");
    expect(() => box.open("AAAA", "prv_1")).toThrow("unknown format");
  });
});

test("hints never reveal more than seven characters", () => {
  expect(keyHint("sk-proj-abcdefghijklmnopqrstuvwxyz1234")).toBe("sk-...1234");
  expect(keyHint("sk-ant-api03-abcdefghijklmnop9876")).toBe("sk-...9876");
  expect(keyHint("AKIAIOSFODNN7EXAMPLE")).toBe("AKI...MPLE");
  expect(keyHint("short")).toBe("...rt");
});
