/**
 * The processes a benchmark run measures, all on loopback: the mock provider, the
 * gateway (from source or the compiled binary) and the bare pass-through proxy. Each
 * announces its address as a JSON line on stdout; the rest of its output is drained
 * and dropped so a full pipe never stalls it.
 */
import type { Subprocess } from "bun";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const ROOT = join(import.meta.dir, "..", "..");
export const CLI = join(ROOT, "src", "cli.ts");

/** The provider key every benchmark configures for (or presents to) the mock provider. */
export const PROVIDER_KEY = "sk-bench-provider-key-0000";

export interface Proc {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** Starts a command and waits for the JSON line that carries `url`. */
export async function spawnAnnounced(
  cmd: string[],
  env: Record<string, string> = {},
): Promise<{ proc: Subprocess<"ignore", "pipe", "inherit">; url: string }> {
  const proc = Bun.spawn(cmd, { cwd: ROOT, env: { ...process.env, ...env }, stdin: "ignore", stdout: "pipe", stderr: "inherit" });
  const reader = proc.stdout.getReader();
  const decoder = new TextDecoder();
  let pending = "";
  // A process that never prints would leave the read below waiting forever: past the
  // deadline it is killed, which ends its output and the read.
  let late = false;
  const deadline = setTimeout(() => {
    late = true;
    proc.kill();
  }, 30_000);
  while (true) {
    const { value, done } = await reader.read();
    if (done) {
      clearTimeout(deadline);
      throw new Error(`${cmd.join(" ")} ${late ? "did not announce its address within 30 s" : "exited before announcing its address"}`);
    }
    pending += decoder.decode(value, { stream: true });
    for (const line of pending.split("\n")) {
      if (!line.includes('"url"')) continue;
      const url = JSON.parse(line).url as string;
      clearTimeout(deadline);
      void (async () => {
        while (!(await reader.read()).done);
      })();
      return { proc, url };
    }
  }
}

function handle(proc: Subprocess, url: string, cleanup?: () => void): Proc {
  return {
    url,
    pid: proc.pid,
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
      cleanup?.();
    },
  };
}

/** `command` is the gateway executable whose `mock-provider` runs: `bun run src/cli.ts` by default, or `dist/gateway`. */
export async function startMock(command: string[] = ["bun", "run", CLI]): Promise<Proc> {
  // Streams of 20 chunks: what the streaming scenarios say they measure.
  const { proc, url } = await spawnAnnounced([...command, "mock-provider", "--port", "0", "--stream-chunks", "20"]);
  return handle(proc, url);
}

export async function startBareProxy(upstream: string): Promise<Proc> {
  const { proc, url } = await spawnAnnounced(["bun", "run", join(ROOT, "bench", "bare-proxy.ts"), upstream]);
  return handle(proc, url);
}

/** The minimal gateway (bench/minimal-gateway.ts) with the given stages ("all", "none" or "+"-joined names). */
export async function startMinimalGateway(upstream: string, stages: string): Promise<Proc> {
  const { proc, url } = await spawnAnnounced(["bun", "run", join(ROOT, "bench", "minimal-gateway.ts"), upstream], {
    GW_MINIMAL_STAGES: stages,
  });
  return handle(proc, url);
}

/** What one run started: stopped together, the last started first, whatever happened in between. */
export class Started {
  private readonly procs: Proc[] = [];

  /** Registers a started process and hands it back. */
  add<P extends Proc>(proc: P): P {
    this.procs.push(proc);
    return proc;
  }

  async stopAll(): Promise<void> {
    for (const p of this.procs.splice(0).reverse()) await p.stop();
  }
}

export interface GatewayProc extends Proc {
  dataDir: string;
}

/** `command` is the gateway executable: `bun run src/cli.ts` by default, or `dist/gateway`. */
export async function startGateway(opts: { command?: string[]; dataDir?: string; env?: Record<string, string> }): Promise<GatewayProc> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), "gw-bench-"));
  const command = opts.command ?? ["bun", "run", CLI];
  // The address is announced at the info level, which is also the level measured (one
  // access-log line a request): pinned, so a GW_LOG_LEVEL in the caller's shell changes neither.
  const { proc, url } = await spawnAnnounced([...command, "serve", "--port", "0", "--data", dataDir], {
    GW_LOG_LEVEL: "info",
    GW_ALLOW_PRIVATE_PROVIDERS: "1",
    ...opts.env,
  });
  return { ...handle(proc, url), dataDir };
}

export function newDataDir(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), "gw-bench-"));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Runs the gateway's command line once (init and the like) and returns stdout. */
export async function runGatewayCli(
  args: string[],
  command: string[] = ["bun", "run", CLI],
  env: Record<string, string> = {},
): Promise<string> {
  const proc = Bun.spawn([...command, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`gateway ${args.join(" ")} failed: ${err}`);
  return out;
}
