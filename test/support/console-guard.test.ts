/** The preloaded console guard (bunfig.toml): a test that writes to console.warn or console.error fails, a quiet one passes. */
import { expect, test } from "bun:test";
import { ROOT } from "./gateway-process.ts";

test("unexpected console output fails the test it happened in, naming what was written", () => {
  const run = Bun.spawnSync(["bun", "test", "./test/fixtures/console-noise.fixture.ts"], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  const out = `${run.stdout}${run.stderr}`;
  expect(run.exitCode).toBe(1);
  expect(out).toContain("console.warn: something the suite did not expect");
  expect(out).toMatch(/\(fail\) warns/);
  expect(out).toMatch(/\(pass\) stays quiet/);
});
