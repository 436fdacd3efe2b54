/**
 * Private redis-server and postgres instances for the scale-out tests: each on a free
 * loopback port, its files in a temporary folder, stopped (and the folder removed) by
 * `stop()`. A missing binary is an error, never a skip: ./scripts/test installs them
 * (scripts/lib/setup.sh). Postgres refuses to run as root, so as root the cluster is
 * created and run as the `postgres` system user through runuser.
 */
import { SQL } from "bun";
import { RedisClient } from "bun";
import { spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A port nobody listens on right now (the OS picks it; a race with another process is possible but rare). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

async function waitFor(what: string, probe: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await probe().catch(() => false)) return;
    await Bun.sleep(50);
  }
  throw new Error(`${what} did not become ready within ${timeoutMs} ms`);
}

function requireBinary(name: string, dirs: string[] = []): string {
  for (const d of [...dirs, ...(process.env.PATH ?? "").split(":")]) {
    const p = join(d, name);
    if (existsSync(p)) return p;
  }
  throw new Error(`${name} is not installed: run ./scripts/test (it installs redis-server and postgresql) or apt-get install them`);
}

export interface RedisServer {
  url: string;
  port: number;
  /** Kills the server at once (SIGKILL), as a crash would. */
  kill(): void;
  /** Starts it again on the same port (empty: no persistence). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export async function startRedis(): Promise<RedisServer> {
  const bin = requireBinary("redis-server");
  const dir = mkdtempSync(join(tmpdir(), "gw-redis-"));
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let proc: ReturnType<typeof Bun.spawn> | null = null;
  const launch = async () => {
    proc = Bun.spawn(
      [
        bin,
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--dir",
        dir,
        "--save",
        "",
        "--appendonly",
        "no",
        "--daemonize",
        "no",
        "--loglevel",
        "warning",
      ],
      {
        stdout: "ignore",
        stderr: "ignore",
      },
    );
    await waitFor(`redis-server on ${port}`, async () => {
      const c = new RedisClient(url, { autoReconnect: false, connectionTimeout: 500 });
      try {
        return (await c.send("PING", [])) === "PONG";
      } finally {
        c.close();
      }
    });
  };
  await launch();
  return {
    url,
    port,
    kill: () => proc?.kill("SIGKILL"),
    restart: launch,
    async stop() {
      proc?.kill("SIGKILL");
      await proc?.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface PostgresServer {
  port: number;
  /** The cluster's superuser, connecting over TCP without a password (trust, loopback only). */
  urlFor(database: string): string;
  /** A new, empty database; its URL. */
  createDatabase(): Promise<string>;
  kill(): void;
  restart(): Promise<void>;
  stop(): Promise<void>;
}

function pgBinDir(): string[] {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .sort((a, b) => Number(b) - Number(a))
    .map((v) => join(root, v, "bin"));
}

let databases = 0;

export async function startPostgres(): Promise<PostgresServer> {
  const dirs = pgBinDir();
  const initdb = requireBinary("initdb", dirs);
  const pgCtl = requireBinary("pg_ctl", dirs);
  const root = mkdtempSync(join(tmpdir(), "gw-pg-"));
  const data = join(root, "data");
  const asRoot = process.getuid?.() === 0;
  // As root, everything runs as `postgres`, which must own the folder.
  const run = (args: string[]) => {
    const cmd = asRoot ? ["runuser", "-u", "postgres", "--", ...args] : args;
    const r = spawnSync(cmd[0] as string, cmd.slice(1), { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`${args[0]} failed (${r.status}): ${r.stderr || r.stdout}`);
  };
  if (asRoot) {
    const pw = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" });
    const gw = spawnSync("id", ["-g", "postgres"], { encoding: "utf8" });
    if (pw.status !== 0) throw new Error("running as root needs the `postgres` system user (apt-get install postgresql creates it)");
    chownSync(root, Number(pw.stdout.trim()), Number(gw.stdout.trim()));
  }
  run([initdb, "-D", data, "-U", "gateway", "-A", "trust", "-E", "UTF8", "--no-sync"]);
  const port = await freePort();
  const urlFor = (db: string) => `postgres://gateway@127.0.0.1:${port}/${db}`;
  const start = async () => {
    run([
      pgCtl,
      "-D",
      data,
      "-l",
      join(root, "log"),
      "-w",
      "-o",
      `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`,
      "start",
    ]);
    await waitFor(`postgres on ${port}`, async () => {
      const sql = new SQL(urlFor("postgres"), { max: 1 });
      try {
        await sql`SELECT 1`;
        return true;
      } finally {
        await sql.close();
      }
    });
  };
  const stopWith = (mode: "fast" | "immediate") => {
    try {
      run([pgCtl, "-D", data, "-m", mode, "-w", "stop"]);
    } catch {
      // already stopped
    }
  };
  await start();
  return {
    port,
    urlFor,
    async createDatabase() {
      const name = `gw_${process.pid}_${++databases}`;
      const admin = new SQL(urlFor("postgres"), { max: 1 });
      try {
        await admin.unsafe(`CREATE DATABASE ${name}`);
      } finally {
        await admin.close();
      }
      return urlFor(name);
    },
    kill: () => stopWith("immediate"),
    restart: start,
    async stop() {
      stopWith("immediate");
      rmSync(root, { recursive: true, force: true });
    },
  };
}
