/** Deterministic token bodies for the vendor-format tests: no real token, the same on every run. */
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** A body of `n` characters over `alphabet` (a fixed sequence of the seed). */
export function body(n: number, seed: number, alphabet = ALNUM): string {
  let state = seed * 7919 + 1;
  return Array.from({ length: n }, () => {
    state = (state * 48271) % 2147483647;
    return alphabet[state % alphabet.length];
  }).join("");
}
export const hex = (n: number, seed: number) => body(n, seed, "0123456789abcdef");
export const upper = (n: number, seed: number) => body(n, seed, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");
export const lower = (n: number, seed: number) => body(n, seed, "abcdefghijklmnopqrstuvwxyz0123456789");
export const digits = (n: number, seed: number) => body(n, seed, "0123456789");
export const uuid = (seed: number) => `${hex(8, seed)}-${hex(4, seed + 1)}-${hex(4, seed + 2)}-${hex(4, seed + 3)}-${hex(12, seed + 4)}`;
