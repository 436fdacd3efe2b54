/** `gateway mock-provider`: runs the built-in fake upstream. */
import { startMockProvider } from "../mock-provider/server.ts";
import { parseFlags, UsageError } from "./args.ts";

export const mockProviderUsage = "gateway mock-provider [--host H] [--port P] [--latency-ms N]";

export async function mockProvider(argv: string[]): Promise<void> {
  const f = parseFlags(argv, { host: { type: "string" }, port: { type: "string" }, "latency-ms": { type: "string" } });
  const port = Number(f.port ?? 18080);
  const latencyMs = Number(f["latency-ms"] ?? 0);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError("--port must be a whole number from 0 to 65535");
  if (!Number.isFinite(latencyMs) || latencyMs < 0) throw new UsageError("--latency-ms must be a number of milliseconds, 0 or more");
  const server = startMockProvider({ host: f.host ?? "127.0.0.1", port, latencyMs });
  console.log(JSON.stringify({ time: new Date().toISOString(), level: "info", msg: "mock provider listening", url: `http://${server.hostname}:${server.port}` }));
  const stop = () => {
    server.stop(true);
    process.exit(0);
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
