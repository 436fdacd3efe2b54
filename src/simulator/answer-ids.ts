/**
 * The simulator's identity for a request: a hash of everything that shapes the answer,
 * from which its ids and generated values follow. The same request gets the same ids;
 * a later turn (the conversation has grown) gets new ones, so a client that keeps ids
 * across turns never sees one reused.
 */

/** A hex digest of the request's parts that decide the answer. */
export function requestKey(parts: unknown): string {
  return new Bun.CryptoHasher("sha256").update(JSON.stringify(parts) ?? "").digest("hex");
}

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** 24 base62 characters for `key` and a label (`call-0`, `msg`), as provider ids look. */
export function idSuffix(key: string, label: string): string {
  const digest = new Bun.CryptoHasher("sha256").update(`${key}:${label}`).digest();
  let out = "";
  for (let i = 0; i < 24; i++) out += ALPHABET[(digest[i] as number) % ALPHABET.length];
  return out;
}

/** A 32-bit seed for the value generator, from `key` and a label. */
export function seedOf(key: string, label: string): number {
  const digest = new Bun.CryptoHasher("sha256").update(`${key}:${label}`).digest();
  return digest.readUInt32LE(0) || 1;
}
