/** The compiled executable: `bun run build` makes dist/gateway, which runs alone from an empty folder. */
import { expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { removeDir, ROOT, runCli, startGateway } from "../support/gateway-process.ts";

test("dist/gateway starts from an empty folder with nothing else present", async () => {
  const build = Bun.spawnSync(["bun", "run", "build"], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  expect(build.exitCode).toBe(0);
  expect(existsSync(join(ROOT, "dist", "gateway"))).toBe(true);

  const empty = mkdtempSync(join(tmpdir(), "gw-binary-"));
  const binary = join(empty, "gateway");
  copyFileSync(join(ROOT, "dist", "gateway"), binary);
  Bun.spawnSync(["chmod", "+x", binary]);
  const env = { PATH: "/usr/bin:/bin", HOME: empty };

  expect((await runCli(["--version"], env, [binary], empty)).code).toBe(0);
  const init = await runCli(["init", "--org", "Binary", "--email", "bin@example.com", "--json"], env, [binary], empty);
  expect(init.code).toBe(0);
  const { apiKey } = JSON.parse(init.stdout);
  // Defaults: ./data under the working directory, with the migrations embedded in the binary.
  expect(readdirSync(join(empty, "data"))).toContain("gateway.db");

  const gw = await startGateway({ command: [binary], cwd: empty, dataDir: join(empty, "data"), env });
  const me = await gw.op(apiKey, "user.me");
  expect(me.status).toBe(200);
  expect(me.body.data.organization.name).toBe("Binary");
  expect(await gw.stop()).toBe(0);
  removeDir(empty);
}, 120_000);
