/**
 * The floor: a pass-through proxy with no checks at all, written the shortest way the
 * runtime allows (Bun.serve + fetch, the body and the answer streamed as they come).
 * Every ratio in the benchmark is taken against it.
 *
 *   bun bench/bare-proxy.ts http://127.0.0.1:18080
 */
const upstream = process.argv[2];
if (!upstream) {
  console.error("usage: bun bench/bare-proxy.ts UPSTREAM_URL");
  process.exit(2);
}

const server = Bun.serve({
  hostname: "127.0.0.1",
  port: Number(process.env.PORT ?? 0),
  async fetch(request) {
    const url = new URL(request.url);
    const headers = new Headers(request.headers);
    headers.delete("host");
    const res = await fetch(upstream + url.pathname + url.search, {
      method: request.method,
      headers,
      body: request.body,
      signal: request.signal,
    });
    return new Response(res.body, { status: res.status, headers: res.headers });
  },
});

console.log(JSON.stringify({ msg: "bare proxy listening", url: `http://${server.hostname}:${server.port}` }));
process.on("SIGTERM", () => {
  server.stop(true);
  process.exit(0);
});
