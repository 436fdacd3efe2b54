/** The request-rate limit over HTTP: per key, per address before authentication, headers on every response. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type InitResult, type RunningGateway, startGatewayWithOrg, stopAndRemove } from "../support/gateway-process.ts";

let gw: RunningGateway;
let org: InitResult;

beforeAll(async () => {
  ({ org, gw } = await startGatewayWithOrg());
});

afterAll(() => stopAndRemove(gw));

/** Sends `total` requests, `concurrency` at a time, and tallies statuses. */
async function burst(total: number, concurrency: number, send: () => Promise<Response>) {
  const statuses = new Map<number, number>();
  let retryAfter: string | null = null;
  let sent = 0;
  const worker = async () => {
    while (sent < total) {
      sent++;
      const res = await send();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (res.status === 429) retryAfter ??= res.headers.get("retry-after");
      await res.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { statuses, retryAfter };
}

test("1,201 quick requests with one key give 429 with Retry-After, and no 5xx", async () => {
  const created = await gw.op(org.apiKey, "org.service-account.create", { serviceAccountName: "burst" });
  const key = created.body.data.apiKey.key;
  const body = JSON.stringify({ operation: "user.me", params: {} });
  const send = () =>
    fetch(`${gw.url}/api/v1/gateway`, {
      method: "POST",
      body,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    });
  const started = performance.now();
  const { statuses, retryAfter } = await burst(1201, 25, send);
  let ok = statuses.get(200) ?? 0;
  let limited = statuses.get(429) ?? 0;
  expect(ok + limited).toBe(1201);
  for (const s of statuses.keys()) expect(s).toBeLessThan(500);
  // The bucket holds 1,200 and is credited 20 more at each whole second, never mid-second:
  // a burst inside one second meets exactly one 429. A slower machine crossed a second
  // boundary and earned more tokens; it must then be refused once those are used.
  const elapsedS = (performance.now() - started) / 1000;
  expect(ok).toBeGreaterThanOrEqual(1200);
  expect(ok).toBeLessThanOrEqual(1200 + Math.floor(elapsedS + 0.5) * 20);
  for (let extra = 0; limited === 0 && extra < 20 * Math.ceil(elapsedS + 1); extra++) {
    const res = await send();
    await res.arrayBuffer();
    if (res.status === 429) limited++;
    else ok++;
  }
  expect(limited).toBeGreaterThanOrEqual(1);
  expect(Number(retryAfter ?? 1)).toBeGreaterThanOrEqual(1);

  // The 429 is in the gateway envelope with the general details, and other keys are unaffected.
  const refused = await gw.op(key, "user.me");
  expect(refused.status).toBe(429);
  expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  expect(refused.body).toMatchObject({ success: false, code: "rate_limit_exceeded", details: { limit: 1200, remaining: 0 } });
  expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
  expect((await gw.op(org.apiKey, "user.me")).status).toBe(200);
});

test("unauthenticated attempts are limited per client address", async () => {
  const body = JSON.stringify({ operation: "user.me", params: {} });
  const { statuses } = await burst(1230, 25, () =>
    fetch(`${gw.url}/api/v1/gateway`, { method: "POST", body, headers: { authorization: "Bearer wrong" } }),
  );
  expect(statuses.get(401)).toBeGreaterThanOrEqual(1150);
  expect(statuses.get(429)).toBeGreaterThanOrEqual(1);
  // A valid key is still served: its own bucket, not the address's.
  expect((await gw.op(org.apiKey, "user.me")).status).toBe(200);
  // Health checks are never charged, even when the address bucket is empty.
  expect((await fetch(`${gw.url}/healthz`)).status).toBe(200);
});
