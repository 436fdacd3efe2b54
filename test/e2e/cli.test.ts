/** The command line contract: help, version, init, user add, config validation, mock-provider. */
import { describe, expect, test } from "bun:test";
import pkg from "../../package.json" with { type: "json" };
import { removeDir, runCli, tempDataDir } from "../support/gateway-process.ts";

describe("gateway CLI", () => {
  test("--version and --help", async () => {
    expect((await runCli(["--version"])).stdout.trim()).toBe(pkg.version);
    const help = await runCli(["--help"]);
    expect(help.code).toBe(0);
    for (const word of ["serve", "init", "user add", "login-link", "mock-provider", "GW_RATE_LIMIT_REQUESTS", "GW_MASTER_KEY"]) expect(help.stdout).toContain(word);
    expect((await runCli(["init", "--help"])).stdout).toContain("--org NAME --email EMAIL");
  });

  test("unknown commands and flags exit 2 with usage", async () => {
    const unknown = await runCli(["frobnicate"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command "frobnicate"');
    const badFlag = await runCli(["init", "--nope"]);
    expect(badFlag.code).toBe(2);
    expect(badFlag.stderr).toContain("Usage: gateway init");
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
    const json = JSON.parse((await runCli(["init", "--data", dir2, "--org", "Beta", "--email", "a@b.test", "--tier", "starter", "--json"])).stdout);
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

  test("a bad setting stops serve with a clear message", async () => {
    const r = await runCli(["serve", "--port", "70000", "--data", tempDataDir()], { GW_RATE_LIMIT_REQUESTS: "lots" });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("--port: must be between 0 and 65535");
    expect(r.stderr).toContain("GW_RATE_LIMIT_REQUESTS: must be a whole number");
  });

  test("mock-provider runs and answers the chat-completions family", async () => {
    const proc = Bun.spawn(["bun", "run", "src/cli.ts", "mock-provider", "--port", "0"], { cwd: `${import.meta.dir}/../..`, stdout: "pipe" });
    const reader = proc.stdout.getReader();
    const { value } = await reader.read();
    const url = JSON.parse(new TextDecoder().decode(value)).url as string;
    const chat = await fetch(`${url}/v1/chat/completions`, { method: "POST", body: JSON.stringify({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }] }) });
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
    for (const [flags, env, message] of cases) {
      const r = await runCli(["mock-provider", ...flags], env);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(message);
      expect(r.stderr).toContain("Usage: gateway mock-provider");
    }
  });

  test("mock-provider --help names every flag and its variable", async () => {
    const help = (await runCli(["mock-provider", "--help"])).stdout;
    for (const word of ["--host", "--port", "--latency-ms", "--stream-chunks", "GW_MOCK_HOST", "GW_MOCK_PORT", "GW_MOCK_LATENCY_MS", "GW_MOCK_STREAM_CHUNKS"]) expect(help).toContain(word);
  });
});
