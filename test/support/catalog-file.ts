/**
 * An operator's catalog (the file GW_CATALOG names) for one test file: written in a
 * temporary folder when the file is loaded, so its path can go straight into the
 * gateway's settings, and removed after the file's last test.
 */
import { afterAll } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { removeDir, tempDataDir } from "./gateway-process.ts";

/** Writes `catalog` as JSON; its path. */
export function catalogPerFile(catalog: object): string {
  const dir = tempDataDir();
  afterAll(() => removeDir(dir));
  const file = join(dir, "catalog.json");
  writeFileSync(file, JSON.stringify(catalog));
  return file;
}
