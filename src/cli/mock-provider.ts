/** `gateway mock-provider`: runs the built-in fake upstream, configured by flags or GW_MOCK_* variables. */
import { startMockProvider } from "../mock-provider/server.ts";
import { parseFlags, UsageError } from "./args.ts";
import { setEgressPolicy } from "../lib/egress/egress-policy.ts";

export const mockProviderUsage =
  "gateway mock-provider [--host H] [--port P] [--latency-ms N] [--stream-chunks N] [--rate-limit-requests N]\n" +
  "      (or GW_MOCK_HOST, GW_MOCK_PORT, GW_MOCK_LATENCY_MS, GW_MOCK_STREAM_CHUNKS, GW_MOCK_RATE_LIMIT_REQUESTS; flags win)";

/** Each flag, the variable that sets it when the flag is absent, and its check. */
const SETTINGS = {
  host: { env: "GW_MOCK_HOST" },
  port: { env: "GW_MOCK_PORT" },
  "latency-ms": { env: "GW_MOCK_LATENCY_MS" },
  "stream-chunks": { env: "GW_MOCK_STREAM_CHUNKS" },
  "rate-limit-requests": { env: "GW_MOCK_RATE_LIMIT_REQUESTS" },
} as const;

type Name = keyof typeof SETTINGS;

export interface MockSettings {
  host: string;
  port: number;
  latencyMs: number;
  streamChunks: number | undefined;
  rateLimitRequests: number | undefined;
}

/** Reads and validates the mock's settings; a bad value is a usage error naming the flag or variable it came from. */
export function mockSettings(argv: string[], env: Record<string, string | undefined> = process.env): MockSettings {
  const f = parseFlags(argv, {
    host: { type: "string" },
    port: { type: "string" },
    "latency-ms": { type: "string" },
    "stream-chunks": { type: "string" },
    "rate-limit-requests": { type: "string" },
  });
  const raw = (name: Name) => {
    const fromFlag = f[name];
    const value = fromFlag ?? env[SETTINGS[name].env];
    return value === undefined || value.trim() === ""
      ? undefined
      : { value: value.trim(), from: fromFlag !== undefined ? `--${name}` : SETTINGS[name].env };
  };
  const whole = (name: Name, min: number, max: number, what: string): number | undefined => {
    const r = raw(name);
    if (!r) return undefined;
    if (!/^\d+$/.test(r.value) || Number(r.value) < min || Number(r.value) > max)
      throw new UsageError(`${r.from} must be ${what}, got "${r.value.slice(0, 40)}"`);
    return Number(r.value);
  };
  return {
    host: raw("host")?.value ?? "127.0.0.1",
    port: whole("port", 0, 65535, "a whole number from 0 to 65535") ?? 18080,
    latencyMs: whole("latency-ms", 0, 600_000, "a whole number of milliseconds from 0 to 600000") ?? 0,
    // Unset keeps one chunk a word; a count must be at least 1 (a stream carries its answer somewhere).
    streamChunks: whole("stream-chunks", 1, 100_000, "a whole number of chunks from 1 to 100000"),
    // Set: model answers carry x-ratelimit-* / anthropic-ratelimit-* headers for this many requests a minute.
    rateLimitRequests: whole("rate-limit-requests", 1, 1_000_000_000, "a whole number of requests from 1 upward"),
  };
}

export async function mockProvider(argv: string[]): Promise<void> {
  const s = mockSettings(argv);
  // The mock runs beside the gateway: its hosted `mcp` tools call back to a gateway on loopback.
  setEgressPolicy({ allowPrivate: true });
  const server = startMockProvider(s);
  console.log(
    JSON.stringify({
      time: new Date().toISOString(),
      level: "info",
      msg: "mock provider listening",
      url: `http://${server.hostname}:${server.port}`,
      latencyMs: s.latencyMs,
      streamChunks: s.streamChunks ?? "one per word",
    }),
  );
  const stop = () => {
    server.stop(true);
    process.exit(0);
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
