/**
 * What the HTTP framework costs per request: one trivial route served by Bun.serve
 * directly, by Elysia with its compiled (AOT) handler, and by Elysia without it, each
 * in its own process, in alternating rounds at 50 connections.
 *
 *   bun bench/elysia-aot.bench.ts
 */
import { Elysia } from "elysia";
import { runLoad } from "./lib/load.ts";
import { spawnAnnounced } from "./lib/processes.ts";
import { cpuMicros } from "./lib/proc-stats.ts";
import { median } from "./lib/stats.ts";

const MODES = ["bun", "elysia-aot", "elysia-dynamic"] as const;
type Mode = (typeof MODES)[number];

function serve(mode: Mode): number {
  const handler = () => new Response('{"ok":true}', { headers: { "content-type": "application/json" } });
  if (mode === "bun") return Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: handler }).port as number;
  const app = new Elysia({ aot: mode === "elysia-aot" })
    .route("POST", "/v1/chat/completions", handler, { parse: "none" })
    .listen({ hostname: "127.0.0.1", port: 0 });
  return app.server?.port as number;
}

const child = process.argv[2] as Mode | undefined;
if (child) {
  console.log(JSON.stringify({ url: `http://127.0.0.1:${serve(child)}` }));
} else {
  const servers = await Promise.all(MODES.map(async (mode) => ({ mode, ...(await spawnAnnounced(["bun", import.meta.path, mode])) })));
  const results = new Map<Mode, { rps: number[]; cpu: number[] }>(MODES.map((m) => [m, { rps: [], cpu: [] }]));
  for (let round = 0; round < 3; round++) {
    for (const s of servers) {
      const before = cpuMicros(s.proc.pid);
      const load = await runLoad(
        s.url,
        { method: "POST", path: "/v1/chat/completions", headers: { "content-type": "application/json" }, body: "{}" },
        { connections: 50, seconds: 3, expectStatus: 200 },
      );
      results.get(s.mode)?.rps.push(load.rps);
      results.get(s.mode)?.cpu.push((cpuMicros(s.proc.pid) - before) / load.requests);
    }
  }
  for (const [mode, r] of results)
    console.log(
      `${mode.padEnd(15)} ${Math.round(median(r.rps)).toLocaleString("en-US").padStart(7)} req/s  ${median(r.cpu).toFixed(1)} µs CPU/request`,
    );
  for (const s of servers) s.proc.kill();
}
