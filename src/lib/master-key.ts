/**
 * The master key: 32 bytes from GW_MASTER_KEY, or generated once into
 * `DATA/master.key` (mode 0600). Purpose-specific keys are derived from it with HKDF
 * so one secret never serves two jobs (key hashing, provider-key encryption, ...).
 */
import { hkdfSync, randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export type KeyPurpose = "api-key-hash" | "provider-key-encryption" | "session-hash" | "tool-grant" | "key-check";

export class MasterKey {
  private constructor(private readonly bytes: Buffer) {}

  /**
   * Uses `configured` (base64) when given, else reads or creates `dataDir/master.key`.
   * `dataInFolder`: the store is in `dataDir` (SQLite), so a master.key there is the key
   * its API keys were hashed and its provider keys sealed with. A GW_MASTER_KEY set later
   * to another value would turn every key into a 401 and every provider into an
   * undecryptable one, silently: that start is refused instead. `mayCreate` false: the
   * database already records a key's check, so none is generated here.
   */
  static load(configured: string | null, dataDir: string, dataInFolder = false, mayCreate = true): MasterKey {
    const path = join(dataDir, "master.key");
    if (configured) {
      const bytes = Buffer.from(configured, "base64");
      if (dataInFolder && existsSync(path) && !bytes.equals(readKeyFile(path)))
        throw new Error(
          `GW_MASTER_KEY is not the key in ${path}, which this data folder's API keys and provider keys were made with: unset GW_MASTER_KEY, or set it to that file's value`,
        );
      return new MasterKey(bytes);
    }
    if (existsSync(path)) return new MasterKey(readKeyFile(path));
    // The data was made with a key that is not here: a new one would be refused, and left behind it would refuse the right one.
    if (!mayCreate)
      throw new Error(
        `no master key: the database was made with one, and neither GW_MASTER_KEY nor ${path} holds it here; set GW_MASTER_KEY as the server has it, or restore that file`,
      );
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const bytes = randomBytes(32);
    writeFileSync(path, `${bytes.toString("base64")}\n`, { mode: 0o600, flag: "wx" });
    chmodSync(path, 0o600);
    return new MasterKey(bytes);
  }

  /** A value that tells two master keys apart and reveals nothing of either (a key of its own purpose, in hex). */
  check(): string {
    return Buffer.from(this.derive("key-check")).toString("hex").slice(0, 32);
  }

  derive(purpose: KeyPurpose): Uint8Array {
    return new Uint8Array(hkdfSync("sha256", this.bytes, Buffer.alloc(0), `gateway/${purpose}/v1`, 32));
  }
}

function readKeyFile(path: string): Buffer {
  const bytes = Buffer.from(readFileSync(path, "utf8").trim(), "base64");
  if (bytes.length !== 32)
    throw new Error(`${path} does not hold 32 bytes of base64; restore it or remove it only if no data depends on it`);
  return bytes;
}
