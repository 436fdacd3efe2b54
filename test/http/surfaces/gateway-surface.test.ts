/**
 * `POST /api/v1/gateway` and what it writes down about the caller. The probe that found
 * the hole: every refused operation writes an audit row, and the row kept the request's
 * `User-Agent` whole, so a sandbox key sending kilobytes of it with each refused call
 * grew the audit log (kept a year) many times faster than its rows alone would.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { MAX_USER_AGENT_CHARS } from "../../../src/http/user-agent.ts";
import { type Harness, startHarness } from "../../security/harness.ts";

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(() => h.close());

const newestAudit = async () => (await h.rt.store.listAudit(h.org.organization.id, { limit: 1, before: null })).entries[0];

test("a refused operation's audit row keeps the caller's User-Agent cut to its bound", async () => {
  const userAgent = `curl/8.0 ${"x".repeat(12_000)}`;
  const res = await h.fetch("/api/v1/gateway", {
    method: "POST",
    headers: { ...h.sandboxAdminKey.headers, "content-type": "application/json", "user-agent": userAgent },
    body: JSON.stringify({ operation: "org.member.remove", params: { userId: "usr_x" } }),
  });
  expect(res.status).toBe(403);
  const entry = await newestAudit();
  expect(entry).toMatchObject({ action: "access.denied", target: "org.member.remove" });
  expect(entry?.userAgent).toBe(userAgent.slice(0, MAX_USER_AGENT_CHARS));
});

test("an allowed operation's audit row is cut the same way", async () => {
  const userAgent = `dashboard ${"y".repeat(3_000)}`;
  const res = await h.fetch("/api/v1/gateway", {
    method: "POST",
    headers: { ...h.admin.headers, "content-type": "application/json", "user-agent": userAgent },
    body: JSON.stringify({ operation: "org.api-key.update", params: { keyId: h.org.apiKey.id, name: "renamed" } }),
  });
  expect(res.status).toBe(200);
  const entry = await newestAudit();
  expect(entry).toMatchObject({ action: "api_key.update", target: h.org.apiKey.id });
  expect(entry?.userAgent).toBe(userAgent.slice(0, MAX_USER_AGENT_CHARS));
});
