/**
 * Sealing provider credentials at rest: AES-256-GCM from node:crypto, a random
 * 12-byte nonce per seal, and associated data that binds a ciphertext to its record
 * (a sealed key copied onto another provider row does not open).
 * Format (base64): version byte 1 | nonce (12) | ciphertext | tag (16).
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

const VERSION = 1;
const NONCE = 12;
const TAG = 16;

export class SecretBox {
  private readonly key: Buffer;

  constructor(key: Uint8Array) {
    if (key.length !== 32) throw new Error("SecretBox needs a 32-byte key");
    this.key = Buffer.from(key);
  }

  seal(plaintext: string, associatedData = ""): string {
    const nonce = randomBytes(NONCE);
    const cipher = createCipheriv("aes-256-gcm", this.key, nonce);
    cipher.setAAD(Buffer.from(associatedData, "utf8"));
    const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
    return Buffer.concat([Buffer.from([VERSION]), nonce, body, cipher.getAuthTag()]).toString("base64");
  }

  open(sealed: string, associatedData = ""): string {
    const raw = Buffer.from(sealed, "base64");
    if (raw.length < 1 + NONCE + TAG || raw[0] !== VERSION) throw new Error("sealed secret has an unknown format");
    const decipher = createDecipheriv("aes-256-gcm", this.key, raw.subarray(1, 1 + NONCE));
    decipher.setAAD(Buffer.from(associatedData, "utf8"));
    decipher.setAuthTag(raw.subarray(raw.length - TAG));
    try {
      return Buffer.concat([decipher.update(raw.subarray(1 + NONCE, raw.length - TAG)), decipher.final()]).toString("utf8");
    } catch {
      throw new Error("sealed secret does not open: wrong master key, or the record was tampered with");
    }
  }
}

/** What may be shown of a credential: its kind prefix and last four characters (`sk-...abcd`). */
export function keyHint(secret: string): string {
  if (secret.length < 12) return `...${secret.slice(-2)}`;
  const prefix = /^[A-Za-z]{2,4}[-_]/.exec(secret)?.[0] ?? secret.slice(0, 3);
  return `${prefix}...${secret.slice(-4)}`;
}
