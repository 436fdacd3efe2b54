/** `gateway serve --workers N`: several processes on one port, only with Redis. */
import { expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import OpenAI from "openai";
import { CLI, removeDir, ROOT, runCli, tempDataDir } from "../support/gateway-process.ts";
import { redisPerFile } from "../support/redis-per-file.ts";
import { freePort } from "../support/servers.ts";

const redis = redisPerFile();

test("several workers without Redis are refused with the reason", async () => {
  const dataDir = tempDataDir();
  const r = await runCli(["serve", "--workers", "2", "--port", String(await freePort()), "--data", dataDir], { GW_REDIS_URL: "" });
  expect(r.code).not.toBe(0);
  expect(r.stderr + r.stdout).toContain("--workers above 1 needs GW_REDIS_URL");
  removeDir(dataDir);
});

test("two workers share one port and one rate limit; SIGTERM stops them all cleanly", async () => {
  const dataDir = tempDataDir();
  // A generous Redis deadline: two workers answering their first calls cold on a busy
  // machine can be slower than the default 250 ms, and a late answer rightly falls back
  // to each node's share of the limit. That fallback has its own tests; this one is
  // about the shared bucket.
  const env = { GW_REDIS_URL: redis.url, GW_REDIS_TIMEOUT_MS: "5000", GW_RATE_LIMIT_REQUESTS: "20", GW_RATE_LIMIT_WINDOW_S: "86400" };
  const init = await runCli(["init", "--data", dataDir, "--org", "W", "--email", "w@w.test", "--json"], env);
  expect(init.code).toBe(0);
  const { apiKey } = JSON.parse(init.stdout);
  const port = await freePort();
  const proc = Bun.spawn(["bun", "run", CLI, "serve", "--workers", "2", "--port", String(port), "--data", dataDir], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  // The log is read as it comes: the test starts once both workers said they listen.
  let out = "";
  let errors = "";
  const reading = (async () => {
    for await (const chunk of proc.stdout.pipeThrough(new TextDecoderStream())) out += chunk;
  })();
  void (async () => {
    for await (const chunk of proc.stderr.pipeThrough(new TextDecoderStream())) errors += chunk;
  })();
  let stopped = false;
  try {
    const url = `http://127.0.0.1:${port}`;
    const listening = () => out.match(/"msg":"listening"/g)?.length ?? 0;
    for (let i = 0; i < 600 && listening() < 2; i++) await Bun.sleep(50);
    expect(listening()).toBe(2);
    expect(
      spawnSync("pgrep", ["-P", String(proc.pid)], { encoding: "utf8" })
        .stdout.trim()
        .split("\n"),
    ).toHaveLength(2);
    // Fresh connections, so the kernel spreads them over both workers; the limit holds across them.
    const client = new OpenAI({
      baseURL: `${url}/v1`,
      apiKey,
      maxRetries: 0,
      fetch: (input, init) => fetch(input as string, { ...init, keepalive: false }),
    });
    const statuses = await Promise.all(
      Array.from({ length: 30 }, () =>
        client.models.list().then(
          () => 200,
          (e) => e.status as number,
        ),
      ),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    proc.kill("SIGTERM");
    expect(await proc.exited).toBe(0);
    // Both bound the port (a worker refused it would have exited and been restarted) and both drained.
    await reading;
    expect(out).not.toContain("worker exited");
    expect(out.match(/"msg":"listening"/g)).toHaveLength(2);
    expect(out.match(/"msg":"stopped"/g)).toHaveLength(2);
    stopped = true;
  } finally {
    // A failed expectation must not leave the workers running: they hold the port and Redis.
    if (!stopped) {
      spawnSync("pkill", ["-KILL", "-P", String(proc.pid)]);
      proc.kill("SIGKILL");
      console.error(`gateway output:\n${out}${errors}`);
    }
  }
  removeDir(dataDir);
}, 60_000);

/** `serve --workers 2` on Redis, its output read as it comes. */
async function startWorkers(dataDir: string, env: Record<string, string> = {}) {
  const proc = Bun.spawn(["bun", "run", CLI, "serve", "--workers", "2", "--port", String(await freePort()), "--data", dataDir], {
    cwd: ROOT,
    env: { ...process.env, GW_REDIS_URL: redis.url, GW_REDIS_TIMEOUT_MS: "5000", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const output = { out: "", err: "" };
  const reading = Promise.all([
    (async () => {
      for await (const chunk of proc.stdout.pipeThrough(new TextDecoderStream())) output.out += chunk;
    })(),
    (async () => {
      for await (const chunk of proc.stderr.pipeThrough(new TextDecoderStream())) output.err += chunk;
    })(),
  ]);
  return { proc, output, reading };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test("workers that fail before they listen stop the whole with exit 1, not a restart every second", async () => {
  const dataDir = tempDataDir();
  const { proc, output, reading } = await startWorkers(dataDir, { GW_CATALOG: `${dataDir}/no-such-catalog.json` });
  const exited = await Promise.race([proc.exited, Bun.sleep(45_000).then(() => "still running")]);
  if (exited === "still running") spawnSync("pkill", ["-KILL", "-P", String(proc.pid)]);
  proc.kill("SIGKILL");
  await reading;
  expect(exited).toBe(1);
  expect(output.err).toContain("GW_CATALOG: cannot read");
  expect(output.out).toContain("worker failed before it listened; stopping every worker");
  expect(output.out).not.toContain("starting another");
  removeDir(dataDir);
}, 60_000);

test("workers whose supervisor is killed hard drain and exit instead of serving on without it", async () => {
  const dataDir = tempDataDir();
  const { proc, output, reading } = await startWorkers(dataDir);
  const listening = () => output.out.match(/"msg":"listening"/g)?.length ?? 0;
  for (let i = 0; i < 600 && listening() < 2; i++) await Bun.sleep(50);
  expect(listening()).toBe(2);
  const workers = spawnSync("pgrep", ["-P", String(proc.pid)], { encoding: "utf8" })
    .stdout.trim()
    .split("\n")
    .map(Number);
  expect(workers).toHaveLength(2);
  proc.kill("SIGKILL");
  for (let i = 0; i < 400 && workers.some(alive); i++) await Bun.sleep(50);
  const orphans = workers.filter(alive);
  for (const pid of orphans) process.kill(pid, "SIGKILL");
  await reading;
  expect(orphans).toEqual([]);
  const stopped = output.out.split("\n").filter((l) => l.includes('"msg":"stopped"'));
  expect(stopped.map((l) => JSON.parse(l).signal)).toEqual(["supervisor gone", "supervisor gone"]);
  removeDir(dataDir);
}, 60_000);

test("once the node serves, a worker that dies is started again while the other serves on", async () => {
  const dataDir = tempDataDir();
  const { proc, output, reading } = await startWorkers(dataDir);
  const listening = () => output.out.match(/"msg":"listening"/g)?.length ?? 0;
  try {
    for (let i = 0; i < 600 && listening() < 2; i++) await Bun.sleep(50);
    const [victim] = spawnSync("pgrep", ["-P", String(proc.pid)], { encoding: "utf8" })
      .stdout.trim()
      .split("\n")
      .map(Number);
    process.kill(victim as number, "SIGKILL");
    for (let i = 0; i < 600 && listening() < 3; i++) await Bun.sleep(50);
    expect(listening()).toBe(3);
    expect(output.out).toContain('"msg":"worker exited; starting another"');
    proc.kill("SIGTERM");
    expect(await proc.exited).toBe(0);
  } finally {
    spawnSync("pkill", ["-KILL", "-P", String(proc.pid)]);
    proc.kill("SIGKILL");
    await reading;
    removeDir(dataDir);
  }
}, 60_000);
