/**
 * Preloaded into every test file (bunfig.toml): a console.error or console.warn during
 * a test fails that test, so the suite's output stays a summary. Expected noise is
 * silenced where it comes from (a library's known notice, say), never allowed here.
 */
import { afterAll, afterEach } from "bun:test";
import { inspect } from "node:util";

const seen: string[] = [];
for (const level of ["error", "warn"] as const) {
  console[level] = (...args: unknown[]) => {
    seen.push(`console.${level}: ${args.map((a) => (typeof a === "string" ? a : inspect(a))).join(" ")}`);
  };
}

/** Output since the last check fails the test it happened in (or the file, when it came after the last one). */
function check(): void {
  if (seen.length === 0) return;
  const lines = seen.splice(0).join("\n");
  throw new Error(`unexpected console output (fix its cause, or silence an expected notice at its source):\n${lines}`);
}

afterEach(check);
afterAll(check);
