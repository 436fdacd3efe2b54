/**
 * The master key: 32 bytes from GW_MASTER_KEY, or generated once into
 * `DATA/master.key` (mode 0600). Purpose-specific keys are derived from it with HKDF
 * so one secret never serves two jobs (key hashing, provider-key encryption, ...).
 */
import { hkdfSync, randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export type KeyPurpose = "api-key-hash" | "provider-key-encryption" | "session-hash" | "tool-grant";

export class MasterKey {
  private constructor(private readonly bytes: Buffer) {}

  /** Uses `configured` (base64) when given, else reads or creates `dataDir/master.key`. */
  static load(configured: string | null, dataDir: string): MasterKey {
    if (configured) return new MasterKey(Buffer.from(configured, "base64"));
    const path = join(dataDir, "master.key");
    if (existsSync(path)) {
      const bytes = Buffer.from(readFileSync(path, "utf8").trim(), "base64");
      if (bytes.length !== 32)
        throw new Error(`${path} does not hold 32 bytes of base64; restore it or remove it only if no data depends on it`);
      return new MasterKey(bytes);
    }
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const bytes = randomBytes(32);
    writeFileSync(path, `${bytes.toString("base64")}\n`, { mode: 0o600, flag: "wx" });
    chmodSync(path, 0o600);
    return new MasterKey(bytes);
  }

  derive(purpose: KeyPurpose): Uint8Array {
    return new Uint8Array(hkdfSync("sha256", this.bytes, Buffer.alloc(0), `gateway/${purpose}/v1`, 32));
  }
}
