/** How a printed `gateway …` command is spelled so that it runs where it is printed. */
import { basename, dirname, isAbsolute, relative, resolve } from "node:path";

/** The clone's wrapper script (runs src/cli.ts with the project's Bun). */
const WRAPPER = resolve(import.meta.dir, "..", "..", "gateway");

/** A compiled binary runs its bundled source from Bun's virtual file system. */
const compiled = (main: string) => main.startsWith("/$bunfs/") || /^[A-Z]:[\\/]~BUN[\\/]/.test(main);

/** A path as typed at `cwd`: `./x` below it, absolute elsewhere (a `../..` chain reads badly). */
function asTyped(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel === "" || rel.startsWith("..") || isAbsolute(rel) ? path : `./${rel}`;
}

/**
 * `gateway` itself when the binary is on PATH; otherwise its path, or from a clone the
 * `./gateway` wrapper's path, as typed from `cwd` (a bare `gateway` does not exist there).
 */
export function gatewayCommand(cwd = process.cwd(), main = Bun.main, execPath = process.execPath, path = process.env.PATH ?? ""): string {
  if (!compiled(main)) return asTyped(WRAPPER, cwd);
  const onPath = path.split(":").some((d) => d !== "" && resolve(d) === dirname(execPath));
  return onPath ? basename(execPath) : asTyped(execPath, cwd);
}
