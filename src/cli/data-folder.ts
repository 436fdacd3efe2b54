/** The data folder made ready before anything is written in it: created owner-only, and a folder this process may write, or a ConfigError naming the setting. */
import { accessSync, constants, existsSync, mkdirSync, statSync } from "node:fs";
import { ConfigError } from "../config.ts";

const SETTING = "--data (GW_DATA_DIR)";

/**
 * Creates `dir` (mode 0700: it holds the master key and the database) unless it exists,
 * and checks it is a folder this process may write. A file in its place, a read-only
 * mount or a folder of another user is one line naming the setting, where the bare
 * system error ("EEXIST: file already exists, mkdir") left the operator guessing.
 */
export function prepareDataFolder(dir: string): void {
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new ConfigError([`${SETTING}: ${dir} is a file, not a folder`]);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (err) {
    throw new ConfigError([`${SETTING}: cannot create the data folder ${dir}: ${reason(err)}`]);
  }
  try {
    accessSync(dir, constants.W_OK);
  } catch (err) {
    throw new ConfigError([`${SETTING}: this process cannot write the data folder ${dir}: ${reason(err)}`]);
  }
}

function reason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === "EEXIST" || code === "ENOTDIR") return "a file stands where a folder is needed";
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  if (code === "EROFS") return "the file system is read-only";
  if (code === "ENOSPC") return "the disk is full";
  return (err as Error).message;
}
