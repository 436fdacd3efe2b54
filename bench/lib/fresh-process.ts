/**
 * Runs a micro-benchmark in a process of its own. Read inside the suite's process,
 * after minutes of load generation have grown its heap, an in-process figure moved by
 * half (the policy stages: 11.5 µs one run, 17.3 µs the next, with no change to them);
 * alone it is steady.
 *
 *   bun bench/lib/fresh-process.ts MODULE EXPORT [JSON_ARGS]   (prints the result as JSON)
 */
import { join } from "node:path";
import { ROOT } from "./processes.ts";

/** `root` is the checkout whose module runs (another revision's, for bench/compare.ts); `env` is added to this process's. */
export async function inFreshProcess<T>(
  module: string,
  exported: string,
  args: unknown[],
  root = ROOT,
  env: Record<string, string> = {},
): Promise<T> {
  const proc = Bun.spawn(["bun", "run", join(root, "bench", "lib", "fresh-process.ts"), module, exported, JSON.stringify(args)], {
    cwd: root,
    env: { ...process.env, ...env },
    stdout: "pipe",
    stderr: "inherit",
  });
  const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  if (code !== 0) throw new Error(`${module} ${exported} exited with ${code}`);
  const last = out.trim().split("\n").at(-1) ?? "";
  return JSON.parse(last) as T;
}

if (import.meta.main) {
  const [module, exported, args = "[]"] = process.argv.slice(2);
  if (!module || !exported) {
    console.error("usage: bun bench/lib/fresh-process.ts MODULE EXPORT [JSON_ARGS]");
    process.exit(2);
  }
  const m = (await import(join(ROOT, module))) as Record<string, (...a: unknown[]) => Promise<unknown>>;
  const fn = m[exported];
  if (typeof fn !== "function") throw new Error(`${module} has no export ${exported}`);
  console.log(JSON.stringify(await fn(...(JSON.parse(args) as unknown[]))));
  process.exit(0);
}
