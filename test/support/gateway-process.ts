/**
 * Runs the real `gateway` command as a child process for end-to-end tests: a fresh
 * data folder, a random port, and helpers to call it and stop it with a signal.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import type { SeenRequest } from "../../src/mock-provider/server.ts";

export const ROOT = join(import.meta.dir, "..", "..");
export const CLI = join(ROOT, "src", "cli.ts");

export interface InitResult {
  orgId: string;
  userId: string;
  serviceAccountId: string;
  keyId: string;
  apiKey: string;
}

export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), "gw-test-"));
}

/** Runs a one-shot command (`init`, `user add`, ...) and returns its output. */
export async function runCli(args: string[], env: Record<string, string> = {}, command: string[] = ["bun", "run", CLI], cwd = ROOT) {
  const proc = Bun.spawn([...command, ...args], { cwd, env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { stdout, stderr, code };
}

export async function initOrg(dataDir: string, email = "admin@example.com", org = "Test Org"): Promise<InitResult> {
  const r = await runCli(["init", "--data", dataDir, "--org", org, "--email", email, "--json"]);
  if (r.code !== 0) throw new Error(`init failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as InitResult;
}

export interface RunningGateway {
  url: string;
  dataDir: string;
  proc: Subprocess<"ignore", "pipe", "pipe">;
  /** Every stdout line so far (JSON logs). */
  lines: string[];
  /** Sends a signal and waits for the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number>;
  /** Calls `POST /api/v1/gateway`. */
  op: GatewayOp;
}

/** `POST /api/v1/gateway` as `key`: the status, the JSON body (read field by field, so loosely typed) and the headers. */
export type GatewayOp = (
  key: string,
  operation: string,
  params?: unknown,
  headers?: Record<string, string>,
) => Promise<{ status: number; body: any; headers: Headers }>;

export async function startGateway(
  opts: { dataDir?: string; env?: Record<string, string>; command?: string[]; cwd?: string } = {},
): Promise<RunningGateway> {
  const dataDir = opts.dataDir ?? tempDataDir();
  const command = opts.command ?? ["bun", "run", CLI];
  const proc = Bun.spawn([...command, "serve", "--port", "0", "--data", dataDir], {
    cwd: opts.cwd ?? ROOT,
    // The mock runs on loopback, which the egress policy allows only when the operator says so.
    env: { ...process.env, GW_LOG_LEVEL: "info", GW_ALLOW_PRIVATE_PROVIDERS: "1", ...opts.env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const lines: string[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`gateway did not start; output:\n${lines.join("\n")}`)), 20_000);
    (async () => {
      const decoder = new TextDecoder();
      let pending = "";
      for await (const chunk of proc.stdout) {
        pending += decoder.decode(chunk, { stream: true });
        let nl: number;
        while ((nl = pending.indexOf("\n")) >= 0) {
          const line = pending.slice(0, nl);
          pending = pending.slice(nl + 1);
          lines.push(line);
          if (line.includes('"msg":"listening"')) {
            clearTimeout(timer);
            resolve(JSON.parse(line).url);
          }
        }
      }
      clearTimeout(timer);
      reject(new Error(`gateway exited before listening:\n${lines.join("\n")}\n${await new Response(proc.stderr).text()}`));
    })();
  });
  return {
    url,
    dataDir,
    proc,
    lines,
    async stop(signal = "SIGTERM") {
      proc.kill(signal);
      return proc.exited;
    },
    op: gatewayOp(url),
  };
}

/** `POST /api/v1/gateway` on the gateway at `url`, as `key`: its `op`, wherever it runs. */
export function gatewayOp(url: string): GatewayOp {
  return async (key, operation, params = {}, headers = {}) => {
    const res = await fetch(`${url}/api/v1/gateway`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...headers },
      body: JSON.stringify({ operation, params }),
    });
    return { status: res.status, body: await res.json(), headers: res.headers };
  };
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** `gateway init` then `gateway serve` over a fresh data folder: an organization and the gateway serving it, no provider yet. */
export async function startGatewayWithOrg(
  opts: { env?: Record<string, string>; adminEmail?: string } = {},
): Promise<{ org: InitResult; gw: RunningGateway }> {
  const dataDir = tempDataDir();
  const org = await initOrg(dataDir, opts.adminEmail);
  const gw = await startGateway({ dataDir, env: opts.env });
  return { org, gw };
}

/** Stops a gateway (as on SIGTERM: it drains and flushes) and removes its data folder. */
export async function stopAndRemove(gw: { stop(): Promise<unknown>; dataDir: string }): Promise<void> {
  await gw.stop();
  removeDir(gw.dataDir);
}

export interface RunningMock {
  url: string;
  /** The requests the mock saw, newest last. */
  // Bodies are read field by field in tests: typed loosely on purpose.
  requests(): Promise<(Omit<SeenRequest, "body"> & { body: any })[]>;
  stats(): Promise<{
    streamsStarted: number;
    streamsFinished: number;
    streamsCancelled: number;
    abandonedByModel: Record<string, number>;
    oversizedBytes: number;
  }>;
  stop(): Promise<void>;
}

/** Runs `gateway mock-provider` on a random port. */
export async function startMockProvider(extra: string[] = []): Promise<RunningMock> {
  const proc = Bun.spawn(["bun", "run", CLI, "mock-provider", "--port", "0", ...extra], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  const reader = proc.stdout.getReader();
  const { value } = await reader.read();
  reader.releaseLock();
  const url = JSON.parse(new TextDecoder().decode(value).split("\n")[0] as string).url as string;
  return {
    url,
    ...mockRecords(url),
    async stop() {
      proc.kill();
      await proc.exited;
    },
  };
}

/** What the mock at `url` saw, from its own `/_mock/` routes. */
export function mockRecords(url: string): Pick<RunningMock, "requests" | "stats"> {
  return {
    requests: async () => (await fetch(`${url}/_mock/requests`)).json() as never,
    stats: async () => (await fetch(`${url}/_mock/stats`)).json() as never,
  };
}
