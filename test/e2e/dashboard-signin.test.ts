/**
 * Dashboard sign-in through a real identity provider (oidc-provider, in process), driven
 * over HTTP against the gateway app in process: success, wrong state, replayed code,
 * unknown e-mail (and joining by e-mail domain), expiry after 24 h idle, sign-out.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config.ts";
import { createApp } from "../../src/http/app.ts";
import { createLogger } from "../../src/lib/log.ts";
import { createRuntime, type Runtime } from "../../src/runtime.ts";
import { addMember, initializeOrganization } from "../../src/services/organizations.ts";
import { CLI_ACTOR } from "../../src/domain/identity.ts";
import { SESSION_IDLE_MS } from "../../src/services/sessions.ts";
import { removeDir } from "../support/gateway-process.ts";
import { startTestIdp, type TestIdp } from "../support/oidc-idp.ts";
import { TestBrowser } from "../support/test-browser.ts";

const GATEWAY = "http://gateway.test";
let idp: TestIdp;
let rt: Runtime;
let app: ReturnType<typeof createApp>;
let dataDir: string;
let orgId: string;
let clock = Date.now();
const logged: string[] = [];

beforeAll(async () => {
  idp = await startTestIdp([`${GATEWAY}/signup/callback`]);
  dataDir = mkdtempSync(join(tmpdir(), "gw-signin-"));
  const config = loadConfig(
    { data: dataDir },
    {
      GW_PUBLIC_URL: GATEWAY,
      GW_OIDC_ISSUER: idp.issuer,
      GW_OIDC_CLIENT_ID: idp.clientId,
      GW_OIDC_CLIENT_SECRET: idp.clientSecret,
      GW_LOG_LEVEL: "silent",
      // The identity provider runs on loopback, which the egress policy reaches only with this.
      GW_ALLOW_PRIVATE_EGRESS: "1",
    },
  );
  rt = await createRuntime(
    config,
    createLogger("warn", (chunk) => void logged.push(chunk)),
  );
  rt.services.now = () => clock;
  app = createApp(rt);
  const init = await initializeOrganization(rt.services, { name: "Acme", adminEmail: "admin@acme.test", tier: "enterprise" });
  orgId = init.organization.id;
  await addMember(rt.services, CLI_ACTOR, orgId, { email: "member@acme.test", role: "member" });
});

afterAll(async () => {
  await rt.shutdown();
  await idp.stop();
  removeDir(dataDir);
});

const newBrowser = () => new TestBrowser(GATEWAY, (req) => app.handle(req));

async function callAs(browser: TestBrowser, operation: string, params: unknown = {}) {
  const res = await browser.request(`${GATEWAY}/api/v1/gateway`, {
    method: "POST",
    headers: { origin: GATEWAY, "content-type": "application/json" },
    body: JSON.stringify({ operation, params }),
  });
  return { status: res.status, body: (await res.json()) as any };
}

/** Signs in through the identity provider; returns the browser and where it landed. */
async function signIn(email: string, verified = true) {
  idp.signInAs(email, verified);
  const browser = newBrowser();
  const hops = await browser.navigate(`${GATEWAY}/signup`);
  return { browser, hops, last: hops.at(-1)! };
}

async function auditActions(): Promise<string[]> {
  return (await rt.store.listAudit(orgId, { limit: 20, before: null })).entries.map((e) => e.action);
}

test("a member signs in through the identity provider and lands on the dashboard with a session", async () => {
  const { browser, hops } = await signIn("member@acme.test");
  const start = hops[0]!;
  expect(start.status).toBe(302);
  const authorize = new URL(start.response.headers.get("location")!);
  expect(authorize.origin).toBe(idp.issuer);
  expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
  expect(authorize.searchParams.get("state")).toBeTruthy();
  expect(authorize.searchParams.get("nonce")).toBeTruthy();
  const callback = hops.find((h) => h.url.startsWith(`${GATEWAY}/signup/callback`))!;
  expect(callback.status).toBe(303);
  expect(callback.response.headers.get("location")).toBe("/dashboard");
  const setCookies = callback.response.headers.getSetCookie().join("\n");
  expect(setCookies).toMatch(/gw_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=86400/);
  // The attempt's secrets are gone once used.
  expect(browser.cookie("gateway.test", "gw_oidc")).toBeUndefined();
  const me = await callAs(browser, "user.me");
  expect(me.status).toBe(200);
  expect(me.body.data.user).toMatchObject({ email: "member@acme.test", role: "member" });
  expect(await auditActions()).toContain("session.sign-in");
});

/** Starts an attempt and runs it through the identity provider; returns the flow cookie and the callback it lands on. */
async function throughProvider(email: string) {
  idp.signInAs(email);
  const browser = newBrowser();
  const start = await browser.request(`${GATEWAY}/signup`);
  const flow = browser.cookie("gateway.test", "gw_oidc")!;
  const hops = await browser.navigate(start.headers.get("location")!);
  return { flow, hops, callback: hops.find((h) => h.url.startsWith(`${GATEWAY}/signup/callback`))! };
}

/** A browser holding only the given flow cookie (what an attacker replaying a URL would need). */
function browserWithFlow(flow: string): TestBrowser {
  const b = newBrowser();
  b.jar.set("gateway.test", new Map([["gw_oidc", flow]]));
  return b;
}

test("a callback whose state was tampered with is refused, starts no session and is logged", async () => {
  // Stop at the provider's redirect: the attempt is not finished yet.
  idp.signInAs("admin@acme.test");
  const browser = newBrowser();
  const start = await browser.request(`${GATEWAY}/signup`);
  const flow = browser.cookie("gateway.test", "gw_oidc")!;
  const auth = await browser.request(start.headers.get("location")!);
  const interaction = await browser.request(new URL(auth.headers.get("location")!, idp.issuer).href);
  const resume = await browser.request(new URL(interaction.headers.get("location")!, idp.issuer).href);
  const callbackUrl = new URL(resume.headers.get("location")!);
  expect(callbackUrl.searchParams.get("code")).toBeTruthy();
  callbackUrl.searchParams.set("state", "not-the-state-we-sent");
  const attacker = browserWithFlow(flow);
  const res = await attacker.request(callbackUrl.href);
  expect(res.status).toBe(400);
  expect(await res.text()).toContain("could not be verified");
  expect(attacker.cookie("gateway.test", "gw_session")).toBeUndefined();
  rt.log.flush();
  expect(logged.join("")).toContain('"msg":"sign-in failed"');
});

test("a replayed authorization code is refused", async () => {
  const { flow, callback } = await throughProvider("admin@acme.test");
  expect(callback.status).toBe(303);
  const replay = browserWithFlow(flow);
  const res = await replay.request(callback.url);
  expect(res.status).toBe(400);
  expect(await res.text()).toContain("could not be verified");
  expect(replay.cookie("gateway.test", "gw_session")).toBeUndefined();
});

test("a member whose address the provider marks unverified is refused, and the refusal is audited", async () => {
  const { last } = await signIn("member@acme.test", false);
  expect(last.status).toBe(403);
  expect(await auditActions()).toContain("session.sign-in-failed");
});

test("a sign-in without a flow cookie is refused in words", async () => {
  const res = await newBrowser().request(`${GATEWAY}/signup/callback?code=abc&state=def`);
  expect(res.status).toBe(400);
  expect(res.headers.get("content-type")).toContain("text/html");
  expect(res.headers.get("content-security-policy")).toContain("default-src 'self'");
  expect(await res.text()).toContain("not started in this browser");
});

test("an unknown e-mail gets a 403 page and no account", async () => {
  const { browser, last } = await signIn("stranger@elsewhere.test");
  expect(last.status).toBe(403);
  expect(await last.response.text()).toContain("stranger@elsewhere.test is not a member");
  expect(browser.cookie("gateway.test", "gw_session")).toBeUndefined();
  expect(await rt.store.getUserByEmail("stranger@elsewhere.test")).toBeNull();
});

test("an organization that allows its e-mail domain lets verified addresses join as members", async () => {
  await rt.store.setOrgPreferences(orgId, { ...(await rt.store.getOrgPreferences(orgId)), signInEmailDomains: ["acme.test"] });
  const unverified = await signIn("newcomer@acme.test", false);
  expect(unverified.last.status).toBe(403);
  expect(await rt.store.getUserByEmail("newcomer@acme.test")).toBeNull();
  const { browser, last } = await signIn("newcomer@acme.test", true);
  expect(last.url).toBe(`${GATEWAY}/dashboard`);
  expect((await callAs(browser, "user.me")).body.data.user).toMatchObject({ email: "newcomer@acme.test", role: "member" });
  expect(await auditActions()).toContain("member.join");
});

test("a session ends after 24 hours without use, and use keeps it alive", async () => {
  const { browser } = await signIn("member@acme.test");
  clock += SESSION_IDLE_MS - 60_000;
  expect((await callAs(browser, "user.me")).status).toBe(200);
  clock += SESSION_IDLE_MS - 60_000;
  expect((await callAs(browser, "user.me")).status).toBe(200);
  clock += SESSION_IDLE_MS + 1;
  expect((await callAs(browser, "user.me")).status).toBe(401);
});

test("the dashboard's keepalive renews the cookie of a live session only", async () => {
  const { browser } = await signIn("member@acme.test");
  const renewed = await browser.request(`${GATEWAY}/dashboard/keepalive`, { method: "POST" });
  expect(renewed.status).toBe(204);
  expect(renewed.headers.get("set-cookie")).toMatch(/^gw_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=86400$/);
  clock += SESSION_IDLE_MS + 1;
  const ended = await browser.request(`${GATEWAY}/dashboard/keepalive`, { method: "POST" });
  expect(ended.status).toBe(401);
  expect(ended.headers.get("set-cookie")).toBeNull();
});

test("sign-out ends the session on the server; the old cookie is refused", async () => {
  const { browser } = await signIn("admin@acme.test");
  const cookie = browser.cookie("gateway.test", "gw_session")!;
  const out = await browser.request(`${GATEWAY}/sign-out`, { method: "POST", headers: { origin: GATEWAY } });
  expect(out.status).toBe(303);
  expect(browser.cookie("gateway.test", "gw_session")).toBeUndefined();
  const stolen = newBrowser();
  stolen.jar.set("gateway.test", new Map([["gw_session", cookie]]));
  expect((await callAs(stolen, "user.me")).status).toBe(401);
  expect(await auditActions()).toContain("session.sign-out");
});
