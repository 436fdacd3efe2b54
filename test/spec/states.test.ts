/**
 * SPEC "States and transitions", Session: through the running gateway (its clock moved
 * by the test), a session that keeps being used lives on, and one left idle for 24 hours
 * is refused with 401 from then on.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { SESSION_COOKIE, startSession } from "../../src/services/sessions.ts";
import { type InProcessGateway, startInProcessGateway } from "../support/in-process-gateway.ts";

let gw: InProcessGateway;

beforeAll(async () => {
  gw = await startInProcessGateway();
});

afterAll(() => gw.stop());

const HOUR = 3_600_000;

test("a session lives while it is used and ends after 24 hours without use", async () => {
  const s = gw.rt.services;
  const session = { cookie: `${SESSION_COOKIE}=${await startSession(s.store, gw.init.user, s.now())}` };
  // Used every 23 hours for three days: still the same signed-in user.
  for (let i = 0; i < 3; i++) {
    gw.clock.now += 23 * HOUR;
    const me = await gw.op(session, "user.me");
    expect([i, me.status, me.body.data?.identity]).toEqual([i, 200, "user"]);
  }
  gw.clock.now += 24 * HOUR + 1000;
  const idle = await gw.op(session, "user.me");
  expect(idle.status).toBe(401);
  expect(idle.body).toMatchObject({ success: false, data: null, code: "unauthorized" });
  // Ended for good: use after the refusal does not bring it back.
  expect((await gw.op(session, "user.me")).status).toBe(401);
});
