/** The command line contract: help, version, init, user add, config validation, mock-provider, ./scripts/start. */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { removeDir, ROOT, runCli, tempDataDir } from "../support/gateway-process.ts";

// Every test here starts the real command (often several times); a busy machine needs more than 5 s.
setDefaultTimeout(30_000);

describe("gateway CLI", () => {
  test("--version and --help", async () => {
    expect((await runCli(["--version"])).stdout.trim()).toBe(pkg.version);
    const help = await runCli(["--help"]);
    expect(help.code).toBe(0);
    for (const word of ["serve", "init", "user add", "login-link", "mock-provider", "GW_RATE_LIMIT_REQUESTS", "GW_MASTER_KEY"])
      expect(help.stdout).toContain(word);
    expect((await runCli(["init", "--help"])).stdout).toContain("--org NAME --email EMAIL");
  });

  test("unknown commands and flags exit 2 with usage", async () => {
    const unknown = await runCli(["frobnicate"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command "frobnicate"');
    const badFlag = await runCli(["init", "--nope"]);
    expect(badFlag.code).toBe(2);
    // From the clone, the usage is spelled as it runs there.
    expect(badFlag.stderr).toContain("Usage: ./gateway init");
  });

  test("init prints the key once (human and --json), refuses a duplicate admin", async () => {
    const dir = tempDataDir();
    const human = await runCli(["init", "--data", dir, "--org", "Acme", "--email", "ops@acme.test"]);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/gw_live_[0-9A-Za-z]{40}/);
    expect(human.stdout).toContain("curl");
    const again = await runCli(["init", "--data", dir, "--org", "Acme 2", "--email", "ops@acme.test"]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("already exists");
    const dir2 = tempDataDir();
    const json = JSON.parse(
      (await runCli(["init", "--data", dir2, "--org", "Beta", "--email", "a@b.test", "--tier", "starter", "--json"])).stdout,
    );
    expect(Object.keys(json).sort()).toEqual(["apiKey", "keyId", "orgId", "serviceAccountId", "userId"]);
    expect((await runCli(["init", "--data", dir2, "--org", "X", "--email", "c@b.test", "--tier", "gold"])).code).toBe(2);
    removeDir(dir);
    removeDir(dir2);
  });

  test("user add needs --org when several organizations exist", async () => {
    const dir = tempDataDir();
    await runCli(["init", "--data", dir, "--org", "One", "--email", "one@x.test", "--json"]);
    expect((await runCli(["user", "add", "--data", dir, "--email", "m1@x.test", "--json"])).code).toBe(0);
    await runCli(["init", "--data", dir, "--org", "Two", "--email", "two@x.test", "--json"]);
    const ambiguous = await runCli(["user", "add", "--data", dir, "--email", "m2@x.test"]);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toContain("--org");
    const named = await runCli(["user", "add", "--data", dir, "--email", "m2@x.test", "--org", "Two", "--role", "admin", "--json"]);
    expect(JSON.parse(named.stdout)).toMatchObject({ email: "m2@x.test", role: "admin" });
    removeDir(dir);
  });

  test("a bad setting stops serve with a clear message and the usage-error code", async () => {
    const r = await runCli(["serve", "--port", "70000", "--data", tempDataDir()], { GW_RATE_LIMIT_REQUESTS: "lots" });
    // 2, as for any usage error (mock-provider --port 99999 too): the command must change.
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--port: must be between 0 and 65535");
    expect(r.stderr).toContain("GW_RATE_LIMIT_REQUESTS: must be a whole number");
  });

  test("mock-provider runs and answers the chat-completions family", async () => {
    const proc = Bun.spawn(["bun", "run", "src/cli.ts", "mock-provider", "--port", "0"], {
      cwd: `${import.meta.dir}/../..`,
      stdout: "pipe",
    });
    const reader = proc.stdout.getReader();
    const { value } = await reader.read();
    const url = JSON.parse(new TextDecoder().decode(value)).url as string;
    const chat = await fetch(`${url}/v1/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }] }),
    });
    expect(await chat.json()).toMatchObject({ object: "chat.completion", model: "gpt-4o", usage: { prompt_tokens: 1 } });
    const models = (await (await fetch(`${url}/v1/models`)).json()) as any;
    expect(models.object).toBe("list");
    proc.kill();
    await proc.exited;
  });

  test("mock-provider refuses bad flags and variables with a message naming them", async () => {
    const cases: [string[], Record<string, string>, string][] = [
      [["--stream-chunks", "0"], {}, "--stream-chunks must be a whole number of chunks from 1 to 100000"],
      [["--stream-chunks", "many"], {}, '--stream-chunks must be a whole number of chunks from 1 to 100000, got "many"'],
      [["--latency-ms=-5"], {}, "--latency-ms must be a whole number of milliseconds"],
      [["--port", "70000"], {}, "--port must be a whole number from 0 to 65535"],
      [[], { GW_MOCK_STREAM_CHUNKS: "2.5" }, 'GW_MOCK_STREAM_CHUNKS must be a whole number of chunks from 1 to 100000, got "2.5"'],
      [[], { GW_MOCK_LATENCY_MS: "soon" }, "GW_MOCK_LATENCY_MS must be a whole number of milliseconds"],
      [[], { GW_MOCK_PORT: "http" }, "GW_MOCK_PORT must be a whole number from 0 to 65535"],
    ];
    const results = await Promise.all(cases.map(([flags, env]) => runCli(["mock-provider", ...flags], env)));
    for (const [i, r] of results.entries()) {
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(cases[i]![2]);
      expect(r.stderr).toContain("Usage: ./gateway mock-provider");
    }
  });

  test("mock-provider --help names every flag and its variable", async () => {
    const help = (await runCli(["mock-provider", "--help"])).stdout;
    for (const word of [
      "--host",
      "--port",
      "--latency-ms",
      "--stream-chunks",
      "GW_MOCK_HOST",
      "GW_MOCK_PORT",
      "GW_MOCK_LATENCY_MS",
      "GW_MOCK_STREAM_CHUNKS",
    ])
      expect(help).toContain(word);
  });
});

/** A port nothing listens on right now (the OS picks it; it is released at once). */
function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = probe.port as number;
  probe.stop(true);
  return port;
}

/** Reads a child's output until `marker` appears, then keeps draining it so the child never blocks on a full pipe. */
async function readUntil(stream: ReadableStream<Uint8Array>, marker: string, timeoutMs: number): Promise<string> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const deadline = Date.now() + timeoutMs;
  while (!text.includes(marker)) {
    const next = await Promise.race([reader.read(), Bun.sleep(Math.max(0, deadline - Date.now())).then(() => null)]);
    if (next === null) throw new Error(`no "${marker}" within ${timeoutMs} ms; output so far:\n${text}`);
    if (next.done) throw new Error(`exited before "${marker}"; output:\n${text}`);
    text += decoder.decode(next.value, { stream: true });
  }
  void (async () => {
    while (!(await reader.read()).done);
  })();
  return text;
}

describe("./scripts/start", () => {
  test("on a fresh data folder the curl it prints answers a chat completion from the mock it started; stopping it stops both", async () => {
    const dir = tempDataDir();
    const port = freePort();
    const mockPort = freePort();
    const proc = Bun.spawn(["bash", join(ROOT, "scripts", "start"), "--port", String(port)], {
      cwd: ROOT,
      env: { ...process.env, GW_DATA_DIR: dir, GW_MOCK_PORT: String(mockPort), GW_LOG_LEVEL: "info" },
      stdout: "pipe",
      stderr: "pipe",
    });
    try {
      // The first-run message comes last, after the server's own lines, so it stays on screen.
      const out = await readUntil(proc.stdout, "Stop with Ctrl-C.", 60_000);
      expect(out.indexOf('"msg":"listening"')).toBeLessThan(out.indexOf("Admin API key"));
      expect(out).toContain(`mock provider at http://127.0.0.1:${mockPort}`);
      // Run exactly what it printed, in a shell: the address and key set once, then the curl.
      const printed = /^ {2}export GW_URL=.*\n(?: {2}.*\n)+/m.exec(out)?.[0] ?? "";
      expect(printed).toContain(`export GW_URL=http://127.0.0.1:${port} GW_KEY=gw_live_`);
      const key = /GW_KEY=(gw_live_[0-9A-Za-z]{40})/.exec(printed)?.[1] ?? "";
      const curl = Bun.spawnSync(["bash", "-c", `${printed}\n`], { stdout: "pipe", stderr: "pipe" });
      expect(curl.exitCode).toBe(0);
      expect(JSON.parse(curl.stdout.toString())).toMatchObject({ object: "chat.completion", model: "gpt-4o-mini" });
      const res = await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, {
        method: "POST",
        headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
        body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "Hello" }] }),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get("x-gw-provider")).toBe("mock-openai/gpt-4o-mini");
      await res.arrayBuffer();
      // claude models reach the mock too, through the messages format.
      const msg = await fetch(`http://127.0.0.1:${port}/v1/messages`, {
        method: "POST",
        headers: { "x-api-key": key, "anthropic-version": "2023-06-01", "content-type": "application/json" },
        body: JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 64, messages: [{ role: "user", content: "Hello" }] }),
      });
      expect(msg.status).toBe(200);
      // Printed once, never written: no file of the data folder holds the key.
      for (const name of readdirSync(dir, { recursive: true }) as string[]) {
        const path = join(dir, name);
        if (statSync(path).isFile()) expect(readFileSync(path).includes(key)).toBe(false);
      }
    } finally {
      proc.kill("SIGTERM");
    }
    expect(await proc.exited).toBe(143);
    // The mock stopped with the gateway.
    expect(
      await fetch(`http://127.0.0.1:${mockPort}/healthz`).then(
        () => "answering",
        () => "stopped",
      ),
    ).toBe("stopped");
    removeDir(dir);
  }, 90_000);
});
