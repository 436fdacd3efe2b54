/**
 * The alert webhook's address is shown whole only to whoever may change it. The probe:
 * a member session, a member key and a sandbox key (the key meant to be harmless if it
 * leaks) read `user.preferences` and got the full URL, which at most receivers (a chat
 * tool's incoming webhook) is all it takes to post into the organization's channel.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type Harness, startHarness } from "./harness.ts";

let h: Harness;
const HOOK = "http://127.0.0.1:9/services/T0001/B0002/very-secret-path-token";

beforeAll(async () => {
  h = await startHarness();
  expect((await h.op(h.admin, "user.preferences", { set: { alertWebhookUrl: HOOK } })).status).toBe(200);
});

afterAll(async () => {
  await h.close();
});

test("admins (key or session) read the webhook URL whole", async () => {
  for (const who of [h.admin, h.adminSession]) {
    const r = await h.op(who, "user.preferences");
    expect(r.status).toBe(200);
    expect(r.body.data.alertWebhookUrl).toBe(HOOK);
  }
});

test("members and sandbox keys read only where it goes, in the answer to a read and to a change of their own", async () => {
  for (const who of [h.member, h.memberKey, h.sandboxAdminKey]) {
    const read = await h.op(who, "user.preferences");
    expect(read.status).toBe(200);
    expect(read.body.data.alertWebhookUrl).toBe("http://127.0.0.1:9/…");
    expect(JSON.stringify(read.body)).not.toContain("very-secret-path-token");
  }
  const own = await h.op(h.member, "user.preferences", { set: { timezone: "Europe/Paris" } });
  expect(own.status).toBe(200);
  expect(JSON.stringify(own.body)).not.toContain("very-secret-path-token");
});
