/** The data folder before anything is written in it: owner-only when created, and one clear line naming the setting when it cannot be used. */
import { afterEach, expect, test } from "bun:test";
import { chmodSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { prepareDataFolder } from "../../src/cli/data-folder.ts";
import { ConfigError } from "../../src/config.ts";
import { removeDir, tempDataDir } from "../support/gateway-process.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) removeDir(d);
});
const base = () => {
  const d = tempDataDir();
  dirs.push(d);
  return d;
};

test("a new data folder, and the folders above it, are created readable by their owner alone", () => {
  const dir = join(base(), "var", "gateway");
  prepareDataFolder(dir);
  expect((statSync(dir).mode & 0o777).toString(8)).toBe("700");
  // One that exists keeps the mode its operator gave it.
  const mine = join(base(), "shared");
  mkdirSync(mine, { mode: 0o750 });
  chmodSync(mine, 0o750);
  prepareDataFolder(mine);
  expect((statSync(mine).mode & 0o777).toString(8)).toBe("750");
});

test("a file where the folder should be, or above it, is a configuration error naming the setting", () => {
  const file = join(base(), "not-a-folder");
  writeFileSync(file, "x");
  for (const dir of [file, join(file, "below")]) {
    let caught: unknown;
    try {
      prepareDataFolder(dir);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as ConfigError).problems).toHaveLength(1);
    expect((caught as ConfigError).problems[0]).toStartWith("--data (GW_DATA_DIR): ");
    expect((caught as ConfigError).problems[0]).toContain(file);
  }
});
