/**
 * The minimal gateway served (bench/lib/minimal-path.ts): the required stages alone,
 * flat on Bun.serve (or, with the "framework" piece, in an Elysia app). `bench/floor.ts`
 * runs it beside the bare proxy and the gateway.
 *
 *   GW_MINIMAL_STAGES=all bun bench/minimal-gateway.ts http://127.0.0.1:18080
 */
import type { Server } from "bun";
import { Elysia } from "elysia";
import { createMinimalPath } from "./lib/minimal-path.ts";

const upstream = process.argv[2];
if (!upstream) {
  console.error("usage: bun bench/minimal-gateway.ts UPSTREAM_URL");
  process.exit(2);
}
const stages = process.env.GW_MINIMAL_STAGES ?? "all";
const path = await createMinimalPath({ upstream, stages });

const listen = { hostname: "127.0.0.1", port: Number(process.env.PORT ?? 0) };
// The framework piece: one route in an Elysia app made as the gateway's is (src/http/app.ts).
const server = path.framework
  ? (new Elysia({ aot: true })
      .post("/v1/chat/completions", ({ request, server }) => path.handle(request, server ?? undefined), { parse: "none" })
      .listen(listen).server as Server<unknown>)
  : Bun.serve({ ...listen, fetch: path.handle });

console.log(JSON.stringify({ msg: "minimal gateway listening", stages, url: `http://${server.hostname}:${server.port}` }));
process.on("SIGTERM", async () => {
  server.stop(true);
  await path.close();
  process.exit(0);
});
