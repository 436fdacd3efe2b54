/** Browser sessions from `gateway login-link`: one-time links, the cookie, same-origin checks, sign-out. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type InitResult, runCli, type RunningGateway, startGatewayWithOrg, stopAndRemove } from "../support/gateway-process.ts";

let gw: RunningGateway;
let org: InitResult;

beforeAll(async () => {
  ({ org, gw } = await startGatewayWithOrg());
});

afterAll(() => stopAndRemove(gw));

async function signIn(email: string): Promise<string> {
  const link = await runCli(["login-link", "--data", gw.dataDir, "--email", email, "--public-url", gw.url]);
  expect(link.code).toBe(0);
  const url = link.stdout.trim();
  expect(url).toStartWith(`${gw.url}/auth/link?token=`);
  const res = await fetch(url, { redirect: "manual" });
  expect(res.status).toBe(303);
  const cookie = res.headers.get("set-cookie") ?? "";
  expect(cookie).toContain("HttpOnly");
  expect(cookie).toContain("SameSite=Lax");
  // A link works once.
  expect((await fetch(url, { redirect: "manual" })).status).toBe(401);
  return cookie.split(";")[0] as string;
}

const callAs = (cookie: string, operation: string, params: unknown = {}, origin: string | null = gw.url) =>
  fetch(`${gw.url}/api/v1/gateway`, {
    method: "POST",
    headers: { cookie, "content-type": "application/json", ...(origin ? { origin } : {}) },
    body: JSON.stringify({ operation, params }),
  });

test("a sign-in link starts a session that identifies the user", async () => {
  const cookie = await signIn("admin@example.com");
  const me = await callAs(cookie, "user.me");
  expect(me.status).toBe(200);
  expect(((await me.json()) as any).data).toEqual({
    user: { id: org.userId, email: "admin@example.com", role: "admin" },
    organization: { id: org.orgId, name: "Test Org", tier: "enterprise" },
    identity: "user",
  });
  // A user session is rate limited per user and audited as the user.
  const created = await callAs(cookie, "org.service-account.create", { serviceAccountName: "from-browser" });
  expect(created.status).toBe(200);
  const audit = (await (await callAs(cookie, "org.audit-log.list", { limit: 2 })).json()) as any;
  expect(audit.data.entries[0].actor).toBe(`user:${org.userId}`);
});

test("state-changing browser calls need a same-origin Origin; read-only ones may come without one", async () => {
  const cookie = await signIn("admin@example.com");
  expect((await callAs(cookie, "org.service-account.create", { serviceAccountName: "no-origin" }, null)).status).toBe(403);
  expect((await callAs(cookie, "user.me", {}, null)).status).toBe(200);
  expect((await callAs(cookie, "user.me", {}, "https://evil.example")).status).toBe(403);
});

test("members sign in too, and their role applies", async () => {
  expect((await runCli(["user", "add", "--data", gw.dataDir, "--email", "member@example.com"])).code).toBe(0);
  const cookie = await signIn("member@example.com");
  expect((await callAs(cookie, "org.members.list")).status).toBe(403);
  expect((await callAs(cookie, "user.me")).status).toBe(200);
});

test("sign-out ends the session", async () => {
  const cookie = await signIn("admin@example.com");
  const out = await fetch(`${gw.url}/sign-out`, { method: "POST", headers: { cookie, origin: gw.url }, redirect: "manual" });
  expect(out.status).toBe(303);
  expect(out.headers.get("set-cookie")).toContain("Max-Age=0");
  expect((await callAs(cookie, "user.me")).status).toBe(401);
});

test("unknown or malformed link tokens are refused", async () => {
  for (const token of ["", "abc", "A".repeat(43)]) {
    expect((await fetch(`${gw.url}/auth/link?token=${token}`, { redirect: "manual" })).status).toBe(401);
  }
  const link = await runCli(["login-link", "--data", gw.dataDir, "--email", "nobody@example.com"]);
  expect(link.code).toBe(1);
  expect(link.stderr).toContain("no user");
});
