/**
 * API key values: `gw_live_` or `gw_test_` followed by 40 base62 characters
 * (about 238 bits). Only an HMAC-SHA256 of the value is ever stored or cached, so
 * neither the database nor a memory dump of the cache yields a usable key.
 */
import type { KeyType } from "./types.ts";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const SECRET_LENGTH = 40;
/** `gw_live_` or `gw_test_`. */
const PREFIX_LENGTH = 8;

/** Uniform base62 from the system CSPRNG (rejection sampling: 248 = 4 * 62, so no modulo bias). */
function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export function generateApiKey(type: KeyType): string {
  return `gw_${type}_${randomBase62(SECRET_LENGTH)}`;
}

/**
 * The key type if `value` is a well-formed key (`gw_(live|test)_` and 40 base62
 * characters), else null (so malformed keys never reach a lookup). Read by hand, not by a
 * regular expression: every call runs it, and after a pause an expression's compiled code
 * is one more thing to bring back (about 5 µs of a paced call's first byte).
 */
export function apiKeyType(value: string): KeyType | null {
  if (value.length !== PREFIX_LENGTH + SECRET_LENGTH || !value.startsWith("gw_")) return null;
  const type = value.startsWith("live_", 3) ? "live" : value.startsWith("test_", 3) ? "test" : null;
  if (type === null) return null;
  for (let i = PREFIX_LENGTH; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122))) return null;
  }
  return type;
}

/** The key whose spend and caps a key counts against: the first of its rotated line. */
export const spendAccountOf = (key: { id: string; spendKeyId?: string }): string => key.spendKeyId ?? key.id;

/** What may be shown of a key: its type prefix and four characters. */
export function apiKeyPrefix(value: string): string {
  return value.slice(0, 12);
}

/** Keyed hash of key values; the secret comes from the master key (see lib/master-key.ts). */
export class ApiKeyHasher {
  /** Keyed once; each hash starts from a copy, which skips setting the key up again. */
  private readonly keyed: Bun.CryptoHasher;

  constructor(secret: Uint8Array) {
    this.keyed = new Bun.CryptoHasher("sha256", secret);
  }

  hash(value: string): string {
    return this.keyed.copy().update(value).digest("hex");
  }
}
