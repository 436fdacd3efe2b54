/**
 * First-run rough edges, as a new user meets them (real processes: these are command
 * line and signal behaviours). The probes: `./scripts/start --help` or a mistyped flag
 * created the demo organization and printed its one-time key, then exited; a second
 * gateway on a taken port started and answered in turn with the first; `gateway serve`
 * on an empty folder started silently; `login-link` printed port 8080 whatever the
 * server's port; a lost admin key could not be replaced.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { initOrg, removeDir, ROOT, runCli, startGateway, tempDataDir } from "../support/gateway-process.ts";

setDefaultTimeout(60_000);

const start = (args: string[], env: Record<string, string>) => runCli(args, env, ["bash", join(ROOT, "scripts", "start")]);

describe("./scripts/start before anything starts", () => {
  test("--help prints usage and creates nothing", async () => {
    const dir = tempDataDir();
    const r = await start(["--help"], { GW_DATA_DIR: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Usage: ./scripts/start");
    expect(r.stdout).not.toContain("gw_live_");
    expect(readdirSync(dir)).toEqual([]);
    removeDir(dir);
  });

  test("a mistyped flag stops it with usage (exit 2) before any organization or key exists", async () => {
    const dir = tempDataDir();
    const r = await start(["--prot", "8080"], { GW_DATA_DIR: dir, GW_START_MOCK: "0" });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--prot");
    expect(r.stderr).toContain("Usage: ./scripts/start");
    expect(r.stdout).not.toContain("gw_live_");
    expect(existsSync(join(dir, "gateway.db"))).toBe(false);
    removeDir(dir);
  });
});

describe("gateway serve", () => {
  test("refuses a port another gateway holds, and a data folder another gateway holds", async () => {
    const gw = await startGateway();
    const port = new URL(gw.url).port;
    try {
      const samePort = await runCli(["serve", "--port", port, "--data", tempDataDir()]);
      expect(samePort.code).toBe(1);
      expect(samePort.stderr).toContain("already in use");
      const sameFolder = await runCli(["serve", "--port", "0", "--data", gw.dataDir]);
      expect(sameFolder.code).toBe(1);
      expect(sameFolder.stderr).toContain(`in use by process ${gw.proc.pid}`);
    } finally {
      await gw.stop();
    }
    // Stopped cleanly, it leaves no lock behind; a crash's stale lock is taken over.
    expect(existsSync(join(gw.dataDir, "gateway.lock"))).toBe(false);
    removeDir(gw.dataDir);
  });

  test("a lock left by a process that is gone is stale and taken over", async () => {
    const dir = tempDataDir();
    await Bun.write(join(dir, "gateway.lock"), JSON.stringify({ pid: 2 ** 22 + 12345 }));
    const gw = await startGateway({ dataDir: dir });
    await gw.stop();
    removeDir(dir);
  });

  test("on an empty data folder it says how to create an organization", async () => {
    const gw = await startGateway();
    try {
      const hint = gw.lines.map((l) => JSON.parse(l)).find((l) => l.level === "warn" && String(l.msg).startsWith("no organization yet"));
      // Spelled as it runs where it is printed: from a clone, the ./gateway wrapper.
      expect(hint?.create).toBe(`./gateway init --org NAME --email EMAIL --data ${gw.dataDir}`);
    } finally {
      await gw.stop();
      removeDir(gw.dataDir);
    }
  });
});

describe("operator commands", () => {
  test("login-link prints the running server's address; key create makes a new admin key once", async () => {
    const dir = tempDataDir();
    await initOrg(dir, "ops@example.com");
    const gw = await startGateway({ dataDir: dir });
    try {
      const link = await runCli(["login-link", "--data", dir, "--email", "ops@example.com"]);
      expect(link.code).toBe(0);
      expect(link.stdout.startsWith(`${gw.url}/auth/link?token=`)).toBe(true);

      const made = await runCli(["key", "create", "--data", dir, "--email", "ops@example.com", "--json"]);
      expect(made.code).toBe(0);
      const key = JSON.parse(made.stdout).apiKey as string;
      expect((await gw.op(key, "user.me")).body.data.user.role).toBe("admin");
      expect((await runCli(["key", "create", "--data", dir])).code).toBe(2);
      expect((await runCli(["key", "create", "--data", dir, "--email", "nobody@example.com"])).code).toBe(1);
      const audit = (await gw.op(key, "org.audit-log.list", { limit: 3 })).body.data.entries.map(
        (e: { action: string; actor: string }) => `${e.action} by ${e.actor}`,
      );
      expect(audit).toContain("service_account.create by cli");
    } finally {
      await gw.stop();
      removeDir(dir);
    }
  });
});
