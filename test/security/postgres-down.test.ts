/**
 * With Postgres down, calls that need it answer 503 `service_unavailable` with
 * `Retry-After`, as with Redis down (the probe found 500s), and serve again once it is
 * back. A private Postgres on loopback is stopped and started under the gateway.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type PostgresServer, startPostgres } from "../support/servers.ts";
import { type Harness, startHarness } from "./harness.ts";

let pg: PostgresServer;
let h: Harness;

beforeAll(async () => {
  pg = await startPostgres();
  h = await startHarness({ GW_DATABASE_URL: await pg.createDatabase() });
}, 60_000);

afterAll(async () => {
  await h.close();
  await pg.stop();
});

const unknownKey = { headers: { authorization: `Bearer gw_live_${"A".repeat(40)}` }, label: "unknown key" };

test("Postgres down: 503 service_unavailable with Retry-After, not 500; back up: served again", async () => {
  expect((await h.op(h.admin, "org.members.list")).status).toBe(200);
  pg.kill();

  // An operation that reads the store (the admin key itself is in this node's memory) and a key not cached yet.
  for (const [who, operation] of [
    [h.admin, "org.members.list"],
    [h.admin, "org.audit-log.list"],
    [unknownKey, "user.me"],
  ] as const) {
    const r = await h.op(who, operation);
    expect(r.status).toBe(503);
    expect(r.body).toMatchObject({ success: false, code: "service_unavailable" });
    expect(r.body.error).toContain("database is unavailable");
    expect(r.headers.get("retry-after")).toBe("1");
  }
  const models = await h.chat(unknownKey, "gpt-4o-mini");
  expect(models.status).toBe(503);
  expect(((await models.json()) as { error: { code: string } }).error.code).toBe("service_unavailable");

  await pg.restart();
  expect((await h.op(h.admin, "org.members.list")).status).toBe(200);
}, 60_000);
