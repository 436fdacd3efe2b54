/**
 * The body of ./scripts/cluster: a private Redis and Postgres (the same helpers the
 * scale-out tests use), the demo organization made once, N `gateway serve` nodes on one
 * database, one Redis and one master key, the mock provider registered as the
 * organization's openai and anthropic providers. Prints each node's address and the admin
 * key once; SIGINT or SIGTERM stops the nodes, the mock and both servers, and removes
 * the folder.
 *
 *   bun scripts/lib/cluster.ts [N] [--port P]
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { Subprocess } from "bun";
import { readLiveLock } from "../../src/cli/data-lock.ts";
import { removeDir } from "../../test/support/gateway-process.ts";
import { startPostgres, startRedis } from "../../test/support/servers.ts";

const ROOT = join(import.meta.dir, "..", "..");
const CLI = join(ROOT, "src", "cli.ts");
const USAGE = "Usage: ./scripts/cluster [N] [--port P]   (N nodes, default 2, on ports P, P+1, ...; default 8080; 0: free ports)";

function fail(message: string): never {
  console.error(`cluster: ${message}\n${USAGE}`);
  process.exit(2);
}

let args: ReturnType<typeof parseArgs<{ options: { port: { type: "string" } }; allowPositionals: true }>>;
try {
  args = parseArgs({ args: process.argv.slice(2), options: { port: { type: "string" } }, allowPositionals: true, strict: true });
} catch (err) {
  fail((err as Error).message.replace(/^TypeError \[\w+\]: /, ""));
}
const nodes = Number(args.positionals[0] ?? 2);
const basePort = Number(args.values.port ?? 8080);
if (!Number.isInteger(nodes) || nodes < 1 || nodes > 16) fail(`N must be a whole number from 1 to 16, got "${args.positionals[0]}"`);
if (!Number.isInteger(basePort) || basePort < 0 || basePort + nodes - 1 > 65535)
  fail(`--port must be a port number, got "${args.values.port}"`);

const folder = mkdtempSync(join(tmpdir(), "gw-cluster-"));
const children: Subprocess[] = [];
const redis = await startRedis();
const postgres = await startPostgres();

let stopping = false;
async function stopAll(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    // Nodes first (they flush usage to Postgres), then what they use.
    for (const child of children.reverse()) {
      child.kill("SIGTERM");
      await child.exited;
    }
    await redis.stop();
    await postgres.stop();
    removeDir(folder);
  }
  process.exit(code);
}
process.on("SIGINT", () => void stopAll(0));
process.on("SIGTERM", () => void stopAll(0));

try {
  const env = {
    ...process.env,
    GW_DATABASE_URL: await postgres.createDatabase(),
    GW_REDIS_URL: redis.url,
    // One key for every node: each must read the keys and provider credentials the others sealed.
    GW_MASTER_KEY: randomBytes(32).toString("base64"),
    GW_ALLOW_PRIVATE_EGRESS: "1",
    GW_LOG_LEVEL: process.env.GW_LOG_LEVEL ?? "warn",
  };

  const mock = Bun.spawn(["bun", CLI, "mock-provider", "--port", "0"], { cwd: ROOT, stdout: "pipe", stderr: "inherit" });
  children.push(mock);
  const first = await mock.stdout.getReader().read();
  const mockUrl = JSON.parse(new TextDecoder().decode(first.value).split("\n")[0] as string).url as string;

  // The organization once, on the shared database (this also runs the migrations before the nodes start together).
  const init = Bun.spawnSync(
    ["bun", CLI, "init", "--org", "Demo", "--email", "admin@example.com", "--json", "--data", join(folder, "node-1")],
    {
      cwd: ROOT,
      env,
    },
  );
  if (init.exitCode !== 0) throw new Error(`gateway init failed: ${init.stderr}`);
  const key = (JSON.parse(init.stdout.toString()) as { apiKey: string }).apiKey;

  const urls: string[] = [];
  for (let i = 1; i <= nodes; i++) {
    const dataDir = join(folder, `node-${i}`);
    const port = basePort === 0 ? 0 : basePort + i - 1;
    const node = Bun.spawn(["bun", CLI, "serve", "--port", String(port), "--data", dataDir], {
      cwd: ROOT,
      env,
      stdout: "inherit",
      stderr: "inherit",
    });
    children.push(node);
    urls.push(await listening(dataDir, node));
  }

  const op = async (operation: string, params: unknown) => {
    const res = await fetch(`${urls[0]}/api/v1/gateway`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ operation, params }),
    });
    if (!res.ok) throw new Error(`${operation}: ${res.status} ${await res.text()}`);
  };
  await op("provider.create", {
    provider: "openai",
    name: "mock-openai",
    apiKey: "mock-provider-accepts-any-key",
    baseUrl: `${mockUrl}/v1`,
    scope: "organization",
  });
  await op("provider.create", {
    provider: "anthropic",
    name: "mock-anthropic",
    apiKey: "mock-provider-accepts-any-key",
    baseUrl: mockUrl,
    scope: "organization",
  });

  console.log(`${nodes} gateway node${nodes > 1 ? "s" : ""} on one Postgres and one Redis, the mock provider at ${mockUrl}:

${urls.map((u, i) => `  node ${i + 1}  ${u}`).join("\n")}

Admin API key of "Demo" (shown once; only its hash is stored):

  export GW_URL=${urls[0]} GW_KEY=${key}

A key, a provider or a cap changed through one node holds on every node. Stop with Ctrl-C.`);
} catch (err) {
  console.error(`cluster: ${(err as Error).message}`);
  await stopAll(1);
}

/** The node's address once it answers /healthz (read from its data folder's lock); a node that exits first stops everything. */
async function listening(dataDir: string, node: Subprocess): Promise<string> {
  for (;;) {
    if (node.exitCode !== null) throw new Error(`a node exited (${node.exitCode}) before listening; is its port taken? (--port)`);
    const url = readLiveLock(dataDir)?.url;
    if (
      url &&
      (await fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      ))
    )
      return url;
    await Bun.sleep(100);
  }
}
