/**
 * ./scripts/start as a new user runs it (real processes): one --port moves the gateway
 * and its mock together, the printed commands run where they are printed, and a second
 * start refused for a data folder in use changes nothing for the gateway already running.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { removeDir, ROOT, runCli, tempDataDir } from "../support/gateway-process.ts";
import { freePort } from "../support/servers.ts";

setDefaultTimeout(120_000);

interface Started {
  proc: Subprocess<"ignore", "pipe", "pipe">;
  /** Everything it printed up to "Stop with Ctrl-C." */
  out: string;
  stop(): Promise<number>;
}

const SCRIPT = join(ROOT, "scripts", "start");
const running: Started[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const s of running) await s.stop();
  for (const d of dirs) removeDir(d);
});

function dataDir(): string {
  const d = tempDataDir();
  dirs.push(d);
  return d;
}

/** Starts the script and waits for its closing line; fails with what it printed if it ends first. */
async function start(args: string[], env: Record<string, string>): Promise<Started> {
  const proc = Bun.spawn(["bash", SCRIPT, ...args], {
    cwd: ROOT,
    env: { ...process.env, GW_MOCK_PORT: "", GW_PORT: "", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const started: Started = {
    proc,
    out: "",
    async stop() {
      proc.kill("SIGTERM");
      return proc.exited;
    },
  };
  running.push(started);
  const decoder = new TextDecoder();
  for await (const chunk of proc.stdout) {
    started.out += decoder.decode(chunk, { stream: true });
    if (started.out.includes("Stop with Ctrl-C.")) return started;
  }
  throw new Error(`./scripts/start ended first:\n${started.out}\n${await new Response(proc.stderr).text()}`);
}

const adminKey = (out: string) => /gw_live_[A-Za-z0-9_-]+/.exec(out)?.[0] as string;

async function chat(url: string, key: string) {
  const res = await fetch(`${url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "Hello" }] }),
  });
  await res.arrayBuffer();
  return { status: res.status, provider: res.headers.get("x-gw-provider") };
}

async function providerAddresses(url: string, key: string): Promise<string[]> {
  const res = await fetch(`${url}/api/v1/gateway`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ operation: "provider.list", params: {} }),
  });
  const body = (await res.json()) as { data: { providers: { name: string; baseUrl: string | null }[] } };
  return body.data.providers.map((p) => `${p.name} ${p.baseUrl}`).sort();
}

describe("./scripts/start", () => {
  test("a second start on a data folder in use is refused and changes nothing, its mock port included", async () => {
    const dir = dataDir();
    const [port, mockPort, otherPort, otherMock] = [await freePort(), await freePort(), await freePort(), await freePort()];
    const first = await start(["--port", String(port)], { GW_DATA_DIR: dir, GW_MOCK_PORT: String(mockPort) });
    const url = `http://127.0.0.1:${port}`;
    const key = adminKey(first.out);
    const before = await providerAddresses(url, key);
    expect(before).toEqual([`mock-anthropic http://127.0.0.1:${mockPort}`, `mock-openai http://127.0.0.1:${mockPort}/v1`]);

    const second = await runCli(["--port", String(otherPort)], { GW_DATA_DIR: dir, GW_MOCK_PORT: String(otherMock) }, ["bash", SCRIPT]);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`the data folder ${dir} is in use by process`);
    expect(second.stdout).not.toContain("gw_live_");

    expect(await providerAddresses(url, key)).toEqual(before);
    expect(await chat(url, key)).toEqual({ status: 200, provider: "mock-openai/gpt-4o-mini" });
  });

  test("--port alone moves the mock too, to a free port, and the printed commands run where they are printed", async () => {
    const dir = dataDir();
    const port = await freePort();
    const s = await start(["--port", String(port)], { GW_DATA_DIR: dir });
    const url = `http://127.0.0.1:${port}`;
    const key = adminKey(s.out);
    expect(s.out).toContain(`export GW_URL=${url} GW_KEY=${key}`);

    const mockPorts = new Set((await providerAddresses(url, key)).map((a) => new URL(a.split(" ")[1] as string).port));
    expect(mockPorts.size).toBe(1);
    expect(mockPorts.has("18080")).toBe(false);
    expect(await chat(url, key)).toEqual({ status: 200, provider: "mock-openai/gpt-4o-mini" });

    // The printed demo-data command, run as printed from the clone (no `gateway` on PATH).
    const printed = /^ {2}(\.\/gateway demo-data .*)$/m.exec(s.out)?.[1] as string;
    expect(printed).toBe(`./gateway demo-data --days 90 --data ${dir}`);
    const demo = await runCli(printed.split(" ").slice(1), {}, ["./gateway"]);
    expect(demo.stderr).toBe("");
    expect(demo.stdout).toContain("synthetic usage events over 90 days");

    // `init` on the folder of a running gateway prints the port it serves, not 8080.
    const other = await runCli(["init", "--org", "Second", "--email", "second@example.com"], { GW_DATA_DIR: dir }, ["./gateway"]);
    expect(other.code).toBe(0);
    expect(other.stdout).toContain(`curl -s ${url}/api/v1/gateway`);
  });
});
