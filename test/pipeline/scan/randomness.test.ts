/**
 * The character model (randomness.ts): tokens drawn from key generators' alphabets are
 * called generated, and the words, names, paths, versions and ids code and configuration
 * are full of are not. The draws here use another seed than the fitting script's.
 */
import { describe, expect, test } from "bun:test";
import { random } from "../../../scanner/carriers.ts";
import { machineRandom, namesSomething } from "../../../src/pipeline/scan/randomness.ts";

const next = random(77);
const draw = (alphabet: string, n: number) => Array.from({ length: n }, () => alphabet[Math.floor(next() * alphabet.length)]).join("");
const BASE62 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

describe("generated tokens", () => {
  const share = (alphabet: string, length: number) => {
    const tokens = Array.from({ length: 200 }, () => draw(alphabet, length));
    return tokens.filter(machineRandom).length / tokens.length;
  };
  test("base62 of 20 to 40 characters", () => {
    expect(share(BASE62, 20)).toBeGreaterThan(0.95);
    expect(share(BASE62, 40)).toBeGreaterThan(0.98);
  });
  test("base64 with its signs", () => expect(share(`${BASE62}+/`, 32)).toBeGreaterThan(0.95));
  test("lower case and digits (base36)", () => expect(share("abcdefghijklmnopqrstuvwxyz0123456789", 32)).toBeGreaterThan(0.9));
  test("hex", () => expect(share("0123456789abcdef", 40)).toBe(1));
});

describe("what is not generated", () => {
  const NAMED = [
    "getUserAccountSettings",
    "com.example.myapp.MainActivity",
    "node_modules/.bin/tsc",
    "PAYMENTS_SERVICE_BASE_URL",
    "kube-system-coredns-config",
    "payments-api-5d8f7c9b4-qw2er",
    "my-app-tls-7f9c8d6b5-x2k4p",
    "2.14.0-rc.1+build.5",
    "550e8400-e29b-41d4-a716-446655440000",
    "123456789012345678",
    "xxxxxxxxxxxxxxxxxxxx",
    "your_api_key_here",
    "Internationalization",
    "/var/lib/postgresql/data",
    "test_user_profile_2024",
    "ReactDOMServerStreaming",
  ];
  for (const value of NAMED) test(value, () => expect(machineRandom(value)).toBe(false));
  test("short values are not judged", () => expect(machineRandom(draw(BASE62, 11))).toBe(false));
});

test("names of words joined by separators name something; a vendor's prefix before a long body does not", () => {
  expect(namesSomething("api-gateway-7d9f8b6c5-x2k4p")).toBe(true);
  expect(namesSomething("/usr/local/share/fonts")).toBe(true);
  expect(namesSomething("packagist_ort_6675e11a686c692f3f2e3b6ce528c3d122d22d912ea69a20713cdf51714ba710ad74")).toBe(false);
});
