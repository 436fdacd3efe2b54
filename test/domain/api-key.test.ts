import { createHmac } from "node:crypto";
import { describe, expect, test } from "bun:test";
import { ApiKeyHasher, apiKeyPrefix, apiKeyType, generateApiKey } from "../../src/domain/api-key.ts";

describe("API key values", () => {
  test("live and test keys have the prefix and 40 base62 characters", () => {
    const live = generateApiKey("live");
    const test_ = generateApiKey("test");
    expect(live).toMatch(/^gw_live_[0-9A-Za-z]{40}$/);
    expect(test_).toMatch(/^gw_test_[0-9A-Za-z]{40}$/);
    expect(apiKeyType(live)).toBe("live");
    expect(apiKeyType(test_)).toBe("test");
  });

  test("values do not repeat and use the whole alphabet", () => {
    const seen = new Set<string>();
    const chars = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const k = generateApiKey("live");
      seen.add(k);
      for (const c of k.slice(8)) chars.add(c);
    }
    expect(seen.size).toBe(2000);
    expect(chars.size).toBe(62);
  });

  test("malformed values are recognised before any lookup", () => {
    for (const bad of [
      "",
      "gw_live_",
      "gw_live_short",
      `gw_prod_${"a".repeat(40)}`,
      `gw_live_${"a".repeat(39)}!`,
      `gw_live_${"a".repeat(41)}`,
      `sk-${"a".repeat(48)}`,
    ]) {
      expect(apiKeyType(bad)).toBeNull();
    }
  });

  test("the format is read as /^gw_(live|test)_[0-9A-Za-z]{40}$/ reads it, character by character", () => {
    const PATTERN = /^gw_(live|test)_[0-9A-Za-z]{40}$/;
    const good = generateApiKey("test");
    const values = [good, `${good} `, ` ${good}`, `GW_${good.slice(3)}`, `gw_Live_${good.slice(8)}`, `gw_test-${good.slice(8)}`];
    // Each secret character replaced by its neighbours in the character table: the alphabet's edges and just past them.
    for (const c of "/09:@AZ[`az{\u00e9\u0660") for (const at of [8, 20, 47]) values.push(good.slice(0, at) + c + good.slice(at + 1));
    for (const v of values) expect(apiKeyType(v)).toBe(PATTERN.test(v) ? (v.charCodeAt(3) === 108 ? "live" : "test") : null);
  });

  test("the hash is keyed: same value and secret give the same hash, another secret another", () => {
    const value = generateApiKey("live");
    const a = new ApiKeyHasher(new Uint8Array(32).fill(1));
    const b = new ApiKeyHasher(new Uint8Array(32).fill(2));
    expect(a.hash(value)).toBe(a.hash(value));
    expect(a.hash(value)).toMatch(/^[0-9a-f]{64}$/);
    expect(a.hash(value)).not.toBe(b.hash(value));
    expect(a.hash(value)).not.toContain(value.slice(8));
  });

  test("the hash is HMAC-SHA256 under the secret, call after call (stored hashes stay valid)", () => {
    const secret = new Uint8Array(32).fill(7);
    const hasher = new ApiKeyHasher(secret);
    for (const value of [generateApiKey("live"), generateApiKey("test"), generateApiKey("live")]) {
      expect(hasher.hash(value)).toBe(createHmac("sha256", secret).update(value).digest("hex"));
    }
  });

  test("the shown prefix reveals four secret characters at most", () => {
    expect(apiKeyPrefix("gw_live_AbCdEfGh")).toBe("gw_live_AbCd");
  });
});
