/**
 * The gateway app in the test process over a fresh data folder, with an organization,
 * its admin, and a clock the test moves. Requests go through `app.handle`.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config.ts";
import { createApp } from "../../src/http/app.ts";
import { createLogger, type LogLevel } from "../../src/lib/log.ts";
import { createRuntime, type Runtime } from "../../src/runtime.ts";
import { initializeOrganization, type InitializedOrganization } from "../../src/services/organizations.ts";
import { removeDir } from "./gateway-process.ts";

export interface InProcessGateway {
  origin: string;
  rt: Runtime;
  app: ReturnType<typeof createApp>;
  init: InitializedOrganization;
  clock: { now: number };
  /** Log lines written so far (after a flush). */
  logged: string[];
  handle(req: Request): Promise<Response>;
  /** POST /api/v1/gateway as a key (`Bearer`) or a session cookie (with a same-origin Origin). */
  op(as: { key?: string; cookie?: string }, operation: string, params?: unknown): Promise<{ status: number; body: any }>;
  stop(): Promise<void>;
}

export async function startInProcessGateway(
  opts: { env?: Record<string, string>; origin?: string; logLevel?: LogLevel } = {},
): Promise<InProcessGateway> {
  const origin = opts.origin ?? "http://gateway.test";
  const dataDir = mkdtempSync(join(tmpdir(), "gw-inproc-"));
  // The mock providers are on loopback: the operator setting the gateway's own tests use.
  const config = loadConfig(
    { data: dataDir },
    { GW_PUBLIC_URL: origin, GW_LOG_LEVEL: "warn", GW_ALLOW_PRIVATE_PROVIDERS: "1", ...opts.env },
  );
  const logged: string[] = [];
  const rt = await createRuntime(
    config,
    createLogger(opts.logLevel ?? "warn", (chunk) => void logged.push(chunk)),
  );
  const clock = { now: Date.now() };
  rt.services.now = () => clock.now;
  const app = createApp(rt);
  const init = await initializeOrganization(rt.services, { name: "Acme", adminEmail: "admin@acme.test", tier: "enterprise" });
  const handle = (req: Request) => app.handle(req);
  return {
    origin,
    rt,
    app,
    init,
    clock,
    logged,
    handle,
    async op(as, operation, params = {}) {
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (as.key) headers.authorization = `Bearer ${as.key}`;
      if (as.cookie) Object.assign(headers, { cookie: as.cookie, origin });
      const res = await handle(
        new Request(`${origin}/api/v1/gateway`, { method: "POST", headers, body: JSON.stringify({ operation, params }) }),
      );
      return { status: res.status, body: await res.json() };
    },
    async stop() {
      await rt.shutdown();
      removeDir(dataDir);
    },
  };
}
