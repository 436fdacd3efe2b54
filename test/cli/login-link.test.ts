/** `gateway login-link`: the link opens where the running server answers. */
import { expect, setDefaultTimeout, test } from "bun:test";
import { initOrg, removeDir, runCli, startGateway, tempDataDir } from "../support/gateway-process.ts";

setDefaultTimeout(60_000);

test("a server listening on every interface (the systemd unit's 0.0.0.0) gets a link on loopback, not http://0.0.0.0", async () => {
  const dir = tempDataDir();
  await initOrg(dir, "ops@example.com");
  const gw = await startGateway({ dataDir: dir, env: { GW_HOST: "0.0.0.0" } });
  try {
    const port = new URL(gw.url).port;
    const link = await runCli(["login-link", "--data", dir, "--email", "ops@example.com"]);
    expect(link.code).toBe(0);
    expect(link.stdout).toStartWith(`http://127.0.0.1:${port}/auth/link?token=`);
    // The link signs in on the address it names.
    const res = await fetch(link.stdout.trim(), { redirect: "manual" });
    expect(res.status).toBeLessThan(400);
  } finally {
    await gw.stop();
    removeDir(dir);
  }
});
