/**
 * The session cookie's two low holes: `GET /sign-out` ended the session (a cross-site
 * link or image logged a user out), and with an https public URL the unprefixed
 * `gw_session` cookie was still accepted (one a sibling subdomain or plain http can
 * plant). Sign-out is now POST from our own origin only, and on https only
 * `__Host-gw_session` is a session.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startSession } from "../../src/services/sessions.ts";
import { type Harness, ORIGIN, startHarness } from "./harness.ts";

async function freshSession(h: Harness): Promise<string> {
  return startSession(h.rt.store, (await h.rt.store.getUser(h.org.user.id))!, Date.now());
}

async function me(h: Harness, cookie: string): Promise<number> {
  const res = await h.fetch("/api/v1/gateway", {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify({ operation: "user.me", params: {} }),
  });
  return res.status;
}

describe("sign-out (http public URL)", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  test("GET /sign-out does not end the session", async () => {
    const cookie = `gw_session=${await freshSession(h)}`;
    const res = await h.fetch("/sign-out", { headers: { cookie } });
    expect(res.status).not.toBe(303);
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(await me(h, cookie)).toBe(200);
  });

  test("a post from another site, or with no Origin, is refused and ends nothing", async () => {
    const cookie = `gw_session=${await freshSession(h)}`;
    const attempts: Record<string, string>[] = [{ cookie, origin: "https://evil.example" }, { cookie }, { cookie, origin: "null" }];
    for (const headers of attempts) {
      const res = await h.fetch("/sign-out", { method: "POST", headers });
      expect(res.status).toBe(403);
      expect(res.headers.get("set-cookie")).toBeNull();
    }
    expect(await me(h, cookie)).toBe(200);
  });

  test("a post from our own origin ends the session and clears the cookie", async () => {
    const cookie = `gw_session=${await freshSession(h)}`;
    const res = await h.fetch("/sign-out", { method: "POST", headers: { cookie, origin: ORIGIN } });
    expect(res.status).toBe(303);
    expect(res.headers.get("set-cookie")).toContain("gw_session=; ");
    expect(await me(h, cookie)).toBe(401);
  });
});

describe("with an https public URL", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ GW_PUBLIC_URL: "https://gw.test" });
  });
  afterAll(async () => {
    await h.close();
  });

  test("only __Host-gw_session is a session; the unprefixed name is refused", async () => {
    const id = await freshSession(h);
    expect(await me(h, `__Host-gw_session=${id}`)).toBe(200);
    expect(await me(h, `gw_session=${id}`)).toBe(401);
  });

  test("sign-out from the public URL's origin ends the __Host- session", async () => {
    const id = await freshSession(h);
    const res = await h.fetch("/sign-out", { method: "POST", headers: { cookie: `__Host-gw_session=${id}`, origin: "https://gw.test" } });
    expect(res.status).toBe(303);
    expect(res.headers.get("set-cookie")).toStartWith("__Host-gw_session=; ");
    expect(await me(h, `__Host-gw_session=${id}`)).toBe(401);
  });
});
