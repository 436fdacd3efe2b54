/** The master key: from GW_MASTER_KEY or the data folder's master.key, and never two different ones over one SQLite folder. */
import { expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { MasterKey } from "../../src/lib/master-key.ts";
import { removeDir, tempDataDir } from "../support/gateway-process.ts";

test("a GW_MASTER_KEY other than the master.key a SQLite folder's data was made with is refused, naming neither value", () => {
  const dir = tempDataDir();
  const made = MasterKey.load(null, dir).derive("api-key-hash");
  expect((statSync(join(dir, "master.key")).mode & 0o777).toString(8)).toBe("600");
  const file = readFileSync(join(dir, "master.key"), "utf8").trim();
  const other = randomBytes(32).toString("base64");
  let message = "";
  try {
    MasterKey.load(other, dir, true);
  } catch (err) {
    message = (err as Error).message;
  }
  expect(message).toStartWith(`GW_MASTER_KEY is not the key in ${join(dir, "master.key")}`);
  expect(message).not.toContain(other);
  expect(message).not.toContain(file);
  // The same key in both is the same data; with the store elsewhere (Postgres) the file is not the data's key.
  expect(MasterKey.load(file, dir, true).derive("api-key-hash")).toEqual(made);
  expect(MasterKey.load(other, dir, false).derive("api-key-hash")).not.toEqual(made);
  removeDir(dir);
});

test("where the data was made with a key that is not here, none is generated: the start is refused and the folder left as it was", () => {
  const dir = tempDataDir();
  expect(() => MasterKey.load(null, dir, false, false)).toThrow("no master key: the database was made with one");
  expect(readdirSync(dir)).toEqual([]);
  removeDir(dir);
});
