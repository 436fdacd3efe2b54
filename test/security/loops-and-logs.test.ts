/**
 * A provider pointed at the gateway itself, and what the operator's log says when a
 * provider is down. The probes that found the holes: a custom provider whose baseUrl
 * was the gateway and whose key was a gateway key made a chain that held 256
 * connections and went on for six minutes after the client left; an unreachable
 * provider was logged at error level with a stack trace.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type Harness, startHarness } from "./harness.ts";

let h: Harness;
let server: ReturnType<typeof Bun.serve>;
let seenByServer = 0;

beforeAll(async () => {
  h = await startHarness();
  // The gateway on a real port, so a provider can be pointed at it.
  server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (req) => (seenByServer++, h.app.handle(req)) });
});

afterAll(async () => {
  server.stop(true);
  await h.close();
});

const chat = (model: string) => h.chat(h.admin, model);

test("a provider whose address is the gateway itself stops at the first hop", async () => {
  const r = await h.op(h.admin, "provider.create", {
    provider: "custom",
    name: "myself",
    apiKey: h.org.keyValue,
    baseUrl: `http://127.0.0.1:${server.port}/v1`,
    country: "US",
    models: ["loop-model"],
  });
  expect(r.status).toBe(200);
  const res = await chat("myself/loop-model");
  expect(res.status).toBe(502);
  expect(((await res.json()) as any).error.message).toContain("came from this gateway itself");
  // One hop reached the served gateway, and it refused at once instead of calling itself again.
  expect(seenByServer).toBe(1);
});

test("a request carrying someone else's hop header is served (two different gateways may be chained)", async () => {
  const res = await h.fetch("/v1/models", { headers: { ...h.admin.headers, "x-gw-hop": "another-gateways-secret" } });
  expect(res.status).toBe(200);
});

test("an unreachable provider is one warning line, without a stack trace", async () => {
  expect(
    (
      await h.op(h.admin, "provider.create", {
        provider: "custom",
        name: "down",
        apiKey: "k-1234567890",
        baseUrl: "http://127.0.0.1:9/v1",
        country: "US",
        models: ["down-model"],
      })
    ).status,
  ).toBe(200);
  const before = h.logLines.length;
  expect((await chat("down/down-model")).status).toBe(503);
  h.rt.log.flush();
  const all = h.logLines.slice(before).map((l) => JSON.parse(l) as Record<string, unknown>);
  expect(all.filter((l) => l.level === "error")).toEqual([]);
  // (A model-list fetch of the earlier tests' self-pointing provider may log its own 508 meanwhile.)
  const lines = all.filter((l) => l.msg === "request failed" && l.route === "/v1/chat/completions");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatchObject({ level: "warn", msg: "request failed", status: 503, code: "provider_unavailable" });
  expect(JSON.stringify(lines[0])).not.toContain("    at ");
});
