/**
 * Admission is structural: every route the app registers, whoever added it, refuses a
 * caller without credentials, except the few that are public on purpose. A new public
 * route must be added to PUBLIC here, where a reviewer sees it. A tool grant (what a
 * provider presents for a hosted `mcp` tool) is a credential only where GRANT_ROUTES says.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { stopAndRemove, tempDataDir } from "../support/gateway-process.ts";
import { type InProcessGateway, initOrgInProcess, startGatewayInProcess } from "../support/in-process.ts";
import { mintToolGrant } from "../support/tool-grants.ts";

/** The dashboard's pages: a static shell each, its data read through the API with the session. */
const DASHBOARD = ["", "/providers", "/keys", "/usage", "/routing", "/mcp", "/notifications", "/audit", "/members", "/preferences"].map(
  (p) => `GET /dashboard${p}`,
);

/** "METHOD path" of the routes anyone may call. */
const PUBLIC = new Set([
  "GET /",
  "GET /healthz",
  "GET /readyz",
  "GET /metrics",
  // The interface description: what the gateway offers, nothing of anyone's data.
  "GET /openapi.json",
  "GET /docs",
  "GET /auth/link",
  "POST /sign-out",
  // Sign-in through the identity provider: there is no identity yet.
  "GET /signup",
  "GET /signup/callback",
  ...DASHBOARD,
  "GET /dashboard/assets/app.js",
  "GET /dashboard/assets/app.css",
  // Renews a live session's cookie, and answers 401 itself without one (its own test).
  "POST /dashboard/keepalive",
]);

/** "METHOD path" of the routes that take a tool grant: the MCP gateway, where the provider calls back. */
const GRANT_ROUTES = new Set(["POST /mcp", "GET /mcp", "DELETE /mcp"]);

let gw: InProcessGateway;
let grant: string;

beforeAll(async () => {
  const dataDir = tempDataDir();
  const org = await initOrgInProcess(dataDir);
  gw = await startGatewayInProcess({ dataDir });
  grant = mintToolGrant({ dataDir, key: org.apiKey, orgId: org.orgId, server: { id: "mcp_any", name: "wiki" } });
});

afterAll(() => stopAndRemove(gw));

/** A concrete URL path for a route pattern: parameters and wildcards filled in. */
const concrete = (pattern: string) => pattern.replace(/:[^/]+/g, "x").replace(/\*/g, "x");

const call = (method: string, path: string, headers: Record<string, string> = {}) =>
  gw.handle(
    new Request(`http://gw.test${concrete(path)}`, {
      method,
      headers: { "content-type": "application/json", ...headers },
      body: method === "GET" || method === "HEAD" ? undefined : "{}",
    }),
  );

describe("every registered route", () => {
  test("the app registers the routes this test knows to be public, and more", () => {
    const registered = new Set(gw.routes.map((r) => `${r.method} ${r.path}`));
    for (const p of PUBLIC) expect(registered.has(p)).toBe(true);
    expect(registered.size).toBeGreaterThan(PUBLIC.size);
  });

  test("each non-public route refuses a missing key, a bad key and a malformed header with 401", async () => {
    const guarded = gw.routes.filter((r) => !PUBLIC.has(`${r.method} ${r.path}`));
    expect(guarded.length).toBeGreaterThan(0);
    for (const r of guarded) {
      for (const headers of [
        {},
        { authorization: "Bearer gw_live_notakey" },
        { authorization: "Basic abc" },
        { "x-api-key": "nope" },
      ] as Record<string, string>[]) {
        const res = await call(r.method, r.path, headers);
        expect({ route: `${r.method} ${r.path}`, headers, status: res.status }).toEqual({
          route: `${r.method} ${r.path}`,
          headers,
          status: 401,
        });
        await res.arrayBuffer();
      }
    }
  });

  test("the refusal is admission's, before the handler: no credentials is named as such", async () => {
    for (const r of gw.routes.filter((r) => !PUBLIC.has(`${r.method} ${r.path}`))) {
      const res = await call(r.method, r.path);
      expect({ route: `${r.method} ${r.path}`, missing: (await res.text()).includes("Missing credentials") }).toEqual({
        route: `${r.method} ${r.path}`,
        missing: true,
      });
    }
  });

  test("each public route answers without asking for credentials", async () => {
    for (const r of gw.routes.filter((r) => PUBLIC.has(`${r.method} ${r.path}`))) {
      const res = await call(r.method, r.path);
      // /auth/link without a token is refused by its own check (an unknown link), not by admission.
      expect({ route: `${r.method} ${r.path}`, asked: (await res.text()).includes("Missing credentials") }).toEqual({
        route: `${r.method} ${r.path}`,
        asked: false,
      });
    }
  });

  test("a valid tool grant is refused as a credential by every route but the MCP gateway's, which takes it", async () => {
    expect(gw.routes.filter((r) => GRANT_ROUTES.has(`${r.method} ${r.path}`)).length).toBe(GRANT_ROUTES.size);
    for (const r of gw.routes.filter((r) => !PUBLIC.has(`${r.method} ${r.path}`))) {
      const res = await call(r.method, r.path, { authorization: `Bearer ${grant}` });
      const text = await res.text();
      const route = `${r.method} ${r.path}`;
      if (GRANT_ROUTES.has(route)) expect({ route, status: res.status }).not.toEqual({ route, status: 401 });
      else
        expect({ route, status: res.status, elsewhere: text.includes("accepted only at /mcp") }).toEqual({
          route,
          status: 401,
          elsewhere: true,
        });
    }
  });
});
