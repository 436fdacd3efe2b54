/**
 * `gateway serve`'s shutdown with its database gone without a reset (a partition, a frozen
 * host; a TCP relay that keeps the connections open and carries nothing): the last flush
 * is bounded and the exit says so, where it waited for the supervisor's SIGKILL.
 */
import { afterAll, expect, test } from "bun:test";
import { removeDir, runCli, startGateway, tempDataDir } from "../support/gateway-process.ts";
import { postgresPerFile } from "../support/postgres-per-file.ts";
import { relayedUrl, type TcpRelay } from "../support/tcp-relay.ts";

const pg = postgresPerFile();
let relay: TcpRelay | null = null;
afterAll(() => relay?.close());

test("a database that stops answering at shutdown: the last flush gives up, logs it, and the exit code is 1", async () => {
  const relayed = await relayedUrl(await pg.createDatabase());
  relay = relayed.relay;
  const env = { GW_DATABASE_URL: relayed.url, GW_MASTER_KEY: Buffer.alloc(32, 3).toString("base64"), GW_FLUSH_INTERVAL_MS: "60000" };
  const dataDir = tempDataDir();
  const init = await runCli(["init", "--data", dataDir, "--org", "O", "--email", "ops@example.com", "--json"], env);
  const gw = await startGateway({ dataDir, env });
  try {
    // A call whose counters wait for the last flush.
    expect((await gw.op(JSON.parse(init.stdout).apiKey, "user.me")).status).toBe(200);
    relay.freeze();
    expect(await gw.stop("SIGTERM")).toBe(1);
    const lines = gw.lines.map((l) => JSON.parse(l));
    expect(lines.find((l) => l.msg.startsWith("shutdown did not finish"))).toMatchObject({ level: "error", waitedS: 10 });
    expect(lines.at(-1)?.msg).toBe("stopped");
  } finally {
    gw.proc.kill("SIGKILL");
    relay.thaw();
    removeDir(dataDir);
  }
}, 60_000);
