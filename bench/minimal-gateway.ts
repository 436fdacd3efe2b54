/**
 * The minimal gateway served (bench/lib/minimal-path.ts): the required stages alone,
 * flat on Bun.serve. `bench/floor.ts` runs it beside the bare proxy and the gateway.
 *
 *   GW_MINIMAL_STAGES=all bun bench/minimal-gateway.ts http://127.0.0.1:18080
 */
import { createMinimalPath } from "./lib/minimal-path.ts";

const upstream = process.argv[2];
if (!upstream) {
  console.error("usage: bun bench/minimal-gateway.ts UPSTREAM_URL");
  process.exit(2);
}
const stages = process.env.GW_MINIMAL_STAGES ?? "all";
const path = await createMinimalPath({ upstream, stages });

const server = Bun.serve({ hostname: "127.0.0.1", port: Number(process.env.PORT ?? 0), fetch: path.handle });

console.log(JSON.stringify({ msg: "minimal gateway listening", stages, url: `http://${server.hostname}:${server.port}` }));
process.on("SIGTERM", async () => {
  server.stop(true);
  await path.close();
  process.exit(0);
});
