/**
 * The targets of one run, started once and shared by every scenario: the mock
 * provider (also called directly), the bare proxy in front of it, and gateways set up
 * the way a user would (init, two providers pointing at the mock, a live and a
 * sandbox key).
 */
import type { Credentials, TargetKind } from "../scenarios.ts";
import { startPostgres, startRedis } from "../../test/support/servers.ts";
import {
  type GatewayProc,
  newDataDir,
  type Proc,
  PROVIDER_KEY,
  runGatewayCli,
  Started,
  startBareProxy,
  startGateway,
  startMock,
} from "./processes.ts";

export interface Target {
  kind: TargetKind;
  label: string;
  url: string;
  /** The process whose CPU and memory are measured (the mock's own for `direct`). */
  pid: number;
  credentials: Credentials;
}

/** A process called with the provider key itself (the mock, the bare proxy, the minimal gateway): no gateway keys to set up. */
export function keylessTarget(kind: TargetKind, label: string, proc: Proc): Target {
  return { kind, label, url: proc.url, pid: proc.pid, credentials: { live: PROVIDER_KEY, test: PROVIDER_KEY } };
}

/** One gateway operation as a key; its `data`, or throws its error. */
export async function op(url: string, key: string, operation: string, params: object): Promise<any> {
  const res = await fetch(`${url}/api/v1/gateway`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ operation, params }),
  });
  const body = (await res.json()) as { success: boolean; data: any; error: string };
  if (!body.success) throw new Error(`${operation}: ${body.error}`);
  return body.data;
}

/**
 * A gateway with its own data folder, an organization, providers on the mock and keys.
 * `command` runs the gateway (the source through `bun run` by default, or the binary).
 * Its process's `stop()` also removes the data folder.
 */
export async function gatewayTarget(
  kind: TargetKind,
  label: string,
  mockUrl: string,
  command: string[] | undefined,
  env: Record<string, string>,
): Promise<{ target: Target; proc: GatewayProc }> {
  const data = newDataDir();
  // The same settings for init: with GW_DATABASE_URL it writes to that store.
  const init = JSON.parse(
    await runGatewayCli(["init", "--data", data.dir, "--org", "Bench", "--email", "bench@example.com", "--json"], command, env),
  ) as { apiKey: string };
  const started = await startGateway({ command, dataDir: data.dir, env });
  const proc: GatewayProc = {
    ...started,
    async stop() {
      await started.stop();
      data.remove();
    },
  };
  try {
    await op(proc.url, init.apiKey, "provider.create", {
      provider: "openai",
      apiKey: PROVIDER_KEY,
      baseUrl: `${mockUrl}/v1`,
      scope: "organization",
    });
    await op(proc.url, init.apiKey, "provider.create", {
      provider: "anthropic",
      apiKey: PROVIDER_KEY,
      baseUrl: mockUrl,
      scope: "organization",
    });
    const sandbox = await op(proc.url, init.apiKey, "org.service-account.create", { serviceAccountName: "bench-sandbox", keyType: "test" });
    return { target: { kind, label, url: proc.url, pid: proc.pid, credentials: { live: init.apiKey, test: sandbox.apiKey.key } }, proc };
  } catch (err) {
    await proc.stop();
    throw err;
  }
}

/** The full path is measured, not the 429 path: the limit is raised, and the stage still runs. */
export const OPEN_RATE_LIMIT = { GW_RATE_LIMIT_REQUESTS: "1000000000", GW_RATE_LIMIT_WINDOW_S: "1" };

export interface Targets {
  all: Target[];
  stop(): Promise<void>;
}

/**
 * `mockFromBinary` runs the mock provider from the compiled binary instead of `bun`.
 * Processes started from one executable share its code in memory, and so in the
 * processor's caches: a gateway started from the same executable as the mock (and
 * the load generator, which is `bun`) finds more of the runtime's code cached after
 * a pause. Which one it is changes the binary's first byte against the source's.
 */
export async function startTargets(opts: { binary: string[] | null; kinds: Set<TargetKind>; mockFromBinary?: boolean }): Promise<Targets> {
  const started = new Started();
  const all: Target[] = [];
  const mock = started.add(await startMock(opts.mockFromBinary && opts.binary ? opts.binary : undefined));
  if (opts.kinds.has("direct")) all.push(keylessTarget("direct", "mock, direct", mock));
  if (opts.kinds.has("bare")) all.push(keylessTarget("bare", "bare proxy", started.add(await startBareProxy(mock.url))));
  const open = OPEN_RATE_LIMIT;
  const gateways: [TargetKind, string, string[] | undefined, Record<string, string>][] = [];
  if (opts.kinds.has("gateway")) gateways.push(["gateway", "gateway (source)", undefined, open]);
  if (opts.kinds.has("binary") && opts.binary) gateways.push(["binary", "gateway (binary)", opts.binary, open]);
  // The 429 path: a small bucket that refills once a day, so the warm-up empties it and
  // no request of the measured rounds is let through by a refill.
  const limited = { GW_RATE_LIMIT_REQUESTS: "100", GW_RATE_LIMIT_WINDOW_S: "86400" };
  if (opts.kinds.has("limited")) gateways.push(["limited", "gateway, rate-limited", opts.binary ?? undefined, limited]);
  if (opts.kinds.has("shared")) {
    // Private Redis and Postgres on loopback: what shared state costs the gateway, one round trip away.
    const [redis, pg] = await Promise.all([startRedis(), startPostgres()]);
    started.add({ url: redis.url, pid: 0, stop: () => redis.stop() });
    started.add({ url: pg.urlFor("postgres"), pid: 0, stop: () => pg.stop() });
    gateways.push([
      "shared",
      "gateway, Redis + Postgres",
      opts.binary ?? undefined,
      { ...open, GW_REDIS_URL: redis.url, GW_DATABASE_URL: await pg.createDatabase() },
    ]);
  }
  for (const [kind, label, command, env] of gateways) {
    const g = await gatewayTarget(kind, label, mock.url, command, env);
    started.add(g.proc);
    all.push(g.target);
  }
  return { all, stop: () => started.stopAll() };
}
