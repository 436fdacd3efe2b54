/**
 * The gateway and the mock provider started inside the test process: the real
 * runtime and app serving on a loopback port (so the official clients and `fetch`
 * reach them as they would a deployed gateway), without spawning `bun` for each.
 * Process-level behaviour (the CLI, the binary, signals, shutdown) keeps
 * gateway-process.ts.
 */
import { loadConfig } from "../../src/config.ts";
import { createApp, SERVER_MAX_REQUEST_BODY } from "../../src/http/app.ts";
import { createLogger } from "../../src/lib/log.ts";
import { mockSettings } from "../../src/cli/mock-provider.ts";
import { startMockProvider } from "../../src/mock-provider/server.ts";
import { createRuntime, openServices, type Runtime } from "../../src/runtime.ts";
import { initializeOrganization } from "../../src/services/organizations.ts";
import { type GatewayOp, gatewayOp, type InitResult, mockRecords, type RunningMock } from "./gateway-process.ts";

/** A gateway as a test talks to it, wherever it runs. */
export interface GatewayUnderTest {
  url: string;
  dataDir: string;
  /** Every log line so far (JSON), pending ones written first. */
  readonly lines: string[];
  /** Drains and shuts down as `gateway serve` does on SIGTERM; resolves 0 as its exit code would be. */
  stop(): Promise<number>;
  /** Calls `POST /api/v1/gateway`. */
  op: GatewayOp;
}

export interface InProcessGateway extends GatewayUnderTest {
  runtime: Runtime;
  /** The app itself, for `handle(new Request(...))` without the socket. */
  handle(request: Request): Promise<Response>;
  /** Every route the app registered, as Elysia lists them. */
  routes: { method: string; path: string }[];
}

/** `gateway init` without the process: an organization, its admin and a service-account key. */
export async function initOrgInProcess(dataDir: string, email = "admin@example.com", org = "Test Org"): Promise<InitResult> {
  const { store, services } = await openServices(loadConfig({ data: dataDir }, {}));
  try {
    const r = await initializeOrganization(services, { name: org, adminEmail: email, tier: "enterprise" });
    return { orgId: r.organization.id, userId: r.user.id, serviceAccountId: r.serviceAccount.id, keyId: r.apiKey.id, apiKey: r.keyValue };
  } finally {
    await store.close();
  }
}

/**
 * The gateway over `dataDir`, configured from `env` as the process would be from its environment (GW_LOG_LEVEL info unless set);
 * on `port` when given (a GW_PUBLIC_URL that names the gateway's own address needs it known first), else any free one.
 */
export async function startGatewayInProcess(opts: {
  dataDir: string;
  env?: Record<string, string>;
  port?: number;
}): Promise<InProcessGateway> {
  // The mock providers are on loopback: the operator setting the gateway's own tests use.
  const env = { GW_LOG_LEVEL: "info", GW_ALLOW_PRIVATE_PROVIDERS: "1", ...opts.env };
  const config = loadConfig({ data: opts.dataDir, port: "0", host: "127.0.0.1" }, env);
  const written: string[] = [];
  const log = createLogger(config.logLevel, (chunk) => {
    for (const line of chunk.split("\n")) if (line !== "") written.push(line);
  });
  const runtime = await createRuntime(config, log);
  const app = createApp(runtime).listen({
    hostname: "127.0.0.1",
    port: opts.port ?? 0,
    maxRequestBodySize: SERVER_MAX_REQUEST_BODY,
  });
  const server = app.server!;
  const url = `http://127.0.0.1:${server.port}`;
  let stopped: Promise<number> | null = null;
  return {
    url,
    dataDir: opts.dataDir,
    runtime,
    get lines() {
      runtime.runner.record();
      log.flush();
      return written;
    },
    handle: (request) => app.handle(request),
    routes: app.routes.map((r) => ({ method: r.method, path: r.path })),
    stop() {
      stopped ??= (async () => {
        runtime.draining = true;
        await server.stop(false);
        await runtime.shutdown();
        return 0;
      })();
      return stopped;
    },
    op: gatewayOp(url),
  };
}

/** The project's mock provider in this process; `args` are `gateway mock-provider`'s flags. */
export function startMockInProcess(args: string[] = []): RunningMock {
  const settings = mockSettings(["--port", "0", ...args], {});
  const server = startMockProvider(settings);
  const url = `http://${server.hostname}:${server.port}`;
  return {
    url,
    ...mockRecords(url),
    async stop() {
      await server.stop(true);
    },
  };
}
