/** ./scripts/test prints a summary, not the suite's every line: failures (none here) and bun's totals. */
import { expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { ROOT, runCli } from "../support/gateway-process.ts";

setDefaultTimeout(120_000);

test("a passing run prints the steps and the totals, and nothing of each test", async () => {
  const r = await runCli(["test/lib/sse.test.ts", "test/support/console-guard.test.ts"], {}, ["bash", join(ROOT, "scripts", "test")]);
  const out = `${r.stdout}${r.stderr}`;
  expect(r.code).toBe(0);
  expect(out).toContain("== type check");
  expect(out).toMatch(/PARALLEL/);
  expect(out).not.toContain("(pass)");
  expect(out).not.toMatch(/warn|notice|deprecated|ECONNRESET/i);
  expect(out).toMatch(/^ [1-9]\d* pass$/m);
  expect(out).toMatch(/^ 0 fail$/m);
});
