/**
 * `gateway serve`'s shutdown, as a process: a stream still running at the drain deadline
 * or at a second signal is cut and charged, not lost to the supervisor's SIGKILL or an
 * immediate exit; usage the store would not take makes the exit non-zero.
 */
import { Database } from "bun:sqlite";
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CLI, initOrg, removeDir, ROOT, runCli, type RunningGateway, startGateway, tempDataDir } from "../support/gateway-process.ts";
import { startProcessStack } from "../support/stack.ts";
import { withStore } from "../support/store-access.ts";
import { sseEvents } from "../support/sse-text.ts";

setDefaultTimeout(60_000);

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0)) await c();
});

/** A gateway whose mock spreads each answer over 40 s, with a provider on it. */
async function slowStack(env: Record<string, string>) {
  const stack = await startProcessStack({ mockArgs: ["--latency-ms", "40000", "--stream-chunks", "40"], env });
  cleanup.push(async () => {
    stack.gw.proc.kill("SIGKILL");
    await stack.gw.proc.exited;
    await stack.mock.stop();
    removeDir(stack.gw.dataDir);
  });
  const lab = { provider: "openai", name: "lab", apiKey: "sk-lab-123456789", baseUrl: `${stack.mock.url}/v1`, scope: "organization" };
  expect((await stack.gw.op(stack.org.apiKey, "provider.create", lab)).status).toBe(200);
  return stack;
}

/** Starts a stream and reads its first chunk: the call is in flight. */
async function streamInFlight(gw: RunningGateway, key: string) {
  const res = await fetch(`${gw.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "gpt-4o-mini", stream: true, messages: [{ role: "user", content: "Tell me a long story." }] }),
  });
  expect(res.status).toBe(200);
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  expect((await reader.read()).done).toBe(false);
  return {
    requestId: res.headers.get("x-request-id") as string,
    /** The rest of the stream as the client gets it (a cut connection ends it early). */
    async rest(): Promise<string> {
      let text = "";
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return text;
          text += new TextDecoder().decode(value);
        }
      } catch {
        return text;
      }
    },
  };
}

async function untilLogged(gw: RunningGateway, msg: string): Promise<void> {
  while (!gw.lines.some((l) => l.includes(`"msg":"${msg}`))) await Bun.sleep(20);
}

async function charged(stack: { gw: RunningGateway; org: { orgId: string } }, requestId: string) {
  return (await withStore(stack.gw.dataDir, (store) => store.listUsageEvents(stack.org.orgId))).find((e) => e.requestId === requestId);
}

/** The caller's terminal error event, as a stream the idle bound ends gets it (the OpenAI format's `data: {"error": ...}`). */
function terminalError(rest: string): { code: string; message: string } | undefined {
  const events = sseEvents(rest).filter((e) => e.data.startsWith("{"));
  return (JSON.parse((events.at(-1) as { data: string }).data) as { error?: { code: string; message: string } }).error;
}

test("a stream still running at the drain deadline is cut with its terminal error event, charged and flushed, and the process exits 0", async () => {
  const stack = await slowStack({ GW_DRAIN_TIMEOUT_S: "1" });
  const call = await streamInFlight(stack.gw, stack.org.apiKey);
  stack.gw.proc.kill("SIGTERM");
  const rest = await call.rest();
  expect(await stack.gw.proc.exited).toBe(0);
  expect(rest).not.toContain("[DONE]");
  expect(terminalError(rest)).toMatchObject({ code: "stream_interrupted", message: expect.stringContaining("GW_DRAIN_TIMEOUT_S") });
  expect(await stack.mock.stats()).toMatchObject({ streamsStarted: 1, streamsCancelled: 1 });
  expect(gw(stack).some((l) => l.msg === "drain deadline passed: cutting in-flight requests" && l.inFlight >= 1)).toBe(true);
  // Charged as a cut stream: its prompt, and the answer's part that went out.
  expect(await charged(stack, call.requestId)).toMatchObject({ status: 499, errorCode: "stream_interrupted", promptTokens: 13 });
});

test("a second signal cuts the streams still running and still writes their usage; it does not exit at once", async () => {
  // Without an idle bound too, the cut stream gets its terminal event.
  const stack = await slowStack({ GW_DRAIN_TIMEOUT_S: "0", GW_STREAM_IDLE_TIMEOUT_S: "0" });
  const call = await streamInFlight(stack.gw, stack.org.apiKey);
  stack.gw.proc.kill("SIGTERM");
  await untilLogged(stack.gw, "shutting down");
  stack.gw.proc.kill("SIGINT");
  const rest = await call.rest();
  expect(await stack.gw.proc.exited).toBe(0);
  expect(rest).not.toContain("[DONE]");
  expect(terminalError(rest)?.code).toBe("stream_interrupted");
  expect(gw(stack).map((l) => l.msg)).toContain("second signal: cutting in-flight requests; their usage is still written");
  expect(await charged(stack, call.requestId)).toMatchObject({ status: 499, errorCode: "stream_interrupted", promptTokens: 13 });
});

test("usage the store would not take at shutdown is logged and makes the exit code 1", async () => {
  const dataDir = tempDataDir();
  const org = await initOrg(dataDir);
  // Only the shutdown flush writes; the database is held locked by another connection meanwhile.
  const server = await startGateway({ dataDir, env: { GW_FLUSH_INTERVAL_MS: "60000" } });
  const holder = new Database(join(dataDir, "gateway.db"));
  cleanup.push(async () => {
    holder.close();
    server.proc.kill("SIGKILL");
    await server.proc.exited;
    removeDir(dataDir);
  });
  expect((await server.op(org.apiKey, "user.me")).status).toBe(200);
  holder.exec("BEGIN IMMEDIATE");
  expect(await server.stop("SIGTERM")).toBe(1);
  holder.exec("ROLLBACK");
  const lines = server.lines.map((l) => JSON.parse(l));
  expect(lines.find((l) => l.msg === "usage not written before exit")).toMatchObject({ level: "error" });
  expect(lines.at(-1)?.msg).toBe("stopped");
});

test("a hot-state snapshot that cannot be written costs only the snapshot: usage is flushed, the store closed, the exit 0", async () => {
  const dataDir = tempDataDir();
  const org = await initOrg(dataDir);
  // A folder where the snapshot file goes: its write fails at shutdown as a full disk's would.
  mkdirSync(join(dataDir, "hot-state.msgpack"));
  const server = await startGateway({ dataDir, env: { GW_FLUSH_INTERVAL_MS: "60000" } });
  cleanup.push(async () => removeDir(dataDir));
  expect((await server.op(org.apiKey, "user.me")).status).toBe(200);
  expect(await server.stop("SIGTERM")).toBe(0);
  const lines = server.lines.map((l) => JSON.parse(l));
  expect(lines.find((l) => l.msg === "hot-state snapshot not written")).toMatchObject({ level: "warn" });
  expect((await withStore(dataDir, (store) => store.getApiKey(org.keyId)))?.requestCount).toBe(1);
});

test("serve over a SQLite folder with a GW_MASTER_KEY other than its master.key refuses to start, printing neither key", async () => {
  const dataDir = tempDataDir();
  cleanup.push(async () => removeDir(dataDir));
  await initOrg(dataDir);
  const other = Buffer.alloc(32, 7).toString("base64");
  const r = await runCli(["serve", "--port", "0", "--data", dataDir], { GW_MASTER_KEY: other });
  expect(r.code).toBe(1);
  expect(r.stderr).toContain("GW_MASTER_KEY is not the key in");
  expect(r.stderr + r.stdout).not.toContain(other);
  expect(existsSync(join(dataDir, "gateway.lock"))).toBe(false);
});

test("an error that escapes in the server (a throw in a timer, an unawaited rejection) is logged and stops it as SIGTERM does, usage flushed, exit 1", async () => {
  for (const how of ["throw", "reject"]) {
    const dataDir = tempDataDir();
    cleanup.push(async () => removeDir(dataDir));
    const org = await initOrg(dataDir);
    const server = await startGateway({
      dataDir,
      env: { GW_FLUSH_INTERVAL_MS: "60000" },
      command: ["bun", join(import.meta.dir, "fixtures", "serve-with-a-bug.ts"), how],
    });
    expect((await server.op(org.apiKey, "user.me")).status).toBe(200);
    server.proc.kill("SIGUSR2");
    expect(await server.proc.exited).toBe(1);
    const lines = server.lines.map((l) => JSON.parse(l));
    const logged = lines.find((l) => l.level === "error" && String(l.msg).endsWith("; stopping"));
    expect(logged?.error).toContain("a bug in a");
    expect(lines.at(-1)?.msg).toBe("stopped");
    // The call's counters, waiting for a flush a minute away, were written by the shutdown.
    expect((await withStore(dataDir, (store) => store.getApiKey(org.keyId)))?.requestCount).toBe(1);
    expect(existsSync(join(dataDir, "gateway.lock"))).toBe(false);
  }
});

test("SIGHUP (a closed terminal or ssh session) stops the server as SIGTERM does, usage flushed", async () => {
  const dataDir = tempDataDir();
  cleanup.push(async () => removeDir(dataDir));
  const org = await initOrg(dataDir);
  const server = await startGateway({ dataDir, env: { GW_FLUSH_INTERVAL_MS: "60000" } });
  expect((await server.op(org.apiKey, "user.me")).status).toBe(200);
  expect(await server.stop("SIGHUP")).toBe(0);
  expect(server.lines.map((l) => JSON.parse(l)).at(-1)).toMatchObject({ msg: "stopped", signal: "SIGHUP" });
  expect((await withStore(dataDir, (store) => store.getApiKey(org.keyId)))?.requestCount).toBe(1);
});

test("a server or command holding another master key than the one a database was made with is refused: no key made elsewhere answers 401", async () => {
  const dataDir = tempDataDir();
  const elsewhere = tempDataDir();
  cleanup.push(async () => {
    removeDir(dataDir);
    removeDir(elsewhere);
  });
  await initOrg(dataDir);
  // The same database from another machine's folder, as a second node on one Postgres is:
  // that folder has no master.key, and one of its own is not made (it would be refused, and
  // left there it would refuse the right one).
  const database = { GW_DATABASE_URL: `sqlite:${join(dataDir, "gateway.db")}` };
  for (const args of [
    ["serve", "--port", "0", "--data", elsewhere],
    ["key", "create", "--email", "admin@example.com", "--data", elsewhere],
  ]) {
    const r = await runCli(args, database);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("no master key: the database was made with one");
    expect(existsSync(join(elsewhere, "master.key"))).toBe(false);
  }
  const withKey = await runCli(["user", "add", "--email", "x@example.com", "--data", elsewhere], {
    ...database,
    GW_MASTER_KEY: Buffer.alloc(32, 9).toString("base64"),
  });
  expect(withKey.stderr).toContain("this GW_MASTER_KEY is not the one");
  expect(withKey.stderr).not.toContain(Buffer.alloc(32, 9).toString("base64"));
  // The folder's own key still opens it.
  expect((await runCli(["user", "add", "--email", "y@example.com", "--data", dataDir])).code).toBe(0);
});

test("an MCP client's open notification stream (GET /mcp) does not hold the shutdown: it ends, and the process exits 0", async () => {
  const dataDir = tempDataDir();
  cleanup.push(async () => removeDir(dataDir));
  const org = await initOrg(dataDir);
  // No drain deadline: only the stream's end lets the process exit.
  const server = await startGateway({ dataDir, env: { GW_DRAIN_TIMEOUT_S: "0" } });
  cleanup.push(async () => {
    server.proc.kill("SIGKILL");
    await server.proc.exited;
  });
  const headers = {
    authorization: `Bearer ${org.apiKey}`,
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
  };
  const initialize = { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "agent", version: "1" } };
  const init = await fetch(`${server.url}/mcp`, {
    method: "POST",
    headers,
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: initialize }),
  });
  await init.text();
  const session = { "mcp-session-id": init.headers.get("mcp-session-id") as string, "mcp-protocol-version": "2025-03-26" };
  const initialized = JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" });
  expect((await fetch(`${server.url}/mcp`, { method: "POST", headers: { ...headers, ...session }, body: initialized })).status).toBe(202);
  // Its headers reach the client with its first event, which may be a while: the server's log says it is open.
  const stream = fetch(`${server.url}/mcp`, { headers: { authorization: headers.authorization, accept: "text/event-stream", ...session } });
  while (!server.lines.some((l) => l.includes('"method":"GET","route":"/mcp","status":200'))) await Bun.sleep(20);
  server.proc.kill("SIGTERM");
  expect(await server.proc.exited).toBe(0);
  expect((await stream).headers.get("content-type")).toBe("text/event-stream");
});

test("a log output whose reader is gone (serve | a shipper that exited) does not stop the server; it says so once on stderr", async () => {
  const dataDir = tempDataDir();
  cleanup.push(async () => removeDir(dataDir));
  const org = await initOrg(dataDir);
  const proc = Bun.spawn(["bun", "run", CLI, "serve", "--port", "0", "--data", dataDir], {
    cwd: ROOT,
    env: { ...process.env, GW_LOG_LEVEL: "info" },
    stdout: "pipe",
    stderr: "pipe",
  });
  cleanup.push(async () => {
    proc.kill("SIGKILL");
    await proc.exited;
  });
  const reader = proc.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  while (!out.includes('"msg":"listening"')) out += (await reader.read()).value ?? "";
  const url = JSON.parse(out.split("\n").find((l) => l.includes('"msg":"listening"')) as string).url as string;
  await reader.cancel();
  const call = () =>
    fetch(`${url}/api/v1/gateway`, {
      method: "POST",
      headers: { authorization: `Bearer ${org.apiKey}` },
      body: JSON.stringify({ operation: "user.me", params: {} }),
    }).then((r) => r.status);
  // Each call writes a request line into the closed pipe; the server answers on.
  for (let i = 0; i < 5; i++) expect(await call()).toBe(200);
  proc.kill("SIGTERM");
  expect(await proc.exited).toBe(0);
  const stderr = await new Response(proc.stderr).text();
  expect(stderr.match(/the log output is closed/g)).toHaveLength(1);
});

test("a mistyped variable is named at start with the setting it likely meant, its value never", async () => {
  const server = await startGateway({ env: { GW_MASTERKEY: "c2VjcmV0LXZhbHVlLW5ldmVyLXByaW50ZWQ=" } });
  cleanup.push(async () => {
    await server.stop();
    removeDir(server.dataDir);
  });
  const warned = server.lines.map((l) => JSON.parse(l)).filter((l) => l.msg === "unknown setting ignored");
  expect(warned).toEqual([expect.objectContaining({ level: "warn", variable: "GW_MASTERKEY", didYouMean: "GW_MASTER_KEY" })]);
  expect(server.lines.join("\n")).not.toContain("c2VjcmV0");
});

test("an address it cannot listen on is one line naming --host and --port, and leaves no lock", async () => {
  const dataDir = tempDataDir();
  cleanup.push(async () => removeDir(dataDir));
  const r = await runCli(["serve", "--host", "256.1.1.1", "--port", "0", "--data", dataDir]);
  expect(r.code).toBe(1);
  expect(r.stderr.trim().split("\n")).toHaveLength(1);
  expect(r.stderr).toStartWith("gateway serve: --host/--port (GW_HOST, GW_PORT): cannot listen on 256.1.1.1:0: ");
  expect(existsSync(join(dataDir, "gateway.lock"))).toBe(false);
});

test("a file where the data folder should be stops serve with the usage-error code, naming the setting", async () => {
  const dataDir = tempDataDir();
  cleanup.push(async () => removeDir(dataDir));
  const file = join(dataDir, "not-a-folder");
  writeFileSync(file, "x");
  const r = await runCli(["serve", "--port", "0", "--data", file]);
  expect(r.code).toBe(2);
  expect(r.stderr).toBe(`gateway serve: invalid configuration:\n  - --data (GW_DATA_DIR): ${file} is a file, not a folder\n`);
});

const gw = (stack: { gw: RunningGateway }) => stack.gw.lines.map((l) => JSON.parse(l));
