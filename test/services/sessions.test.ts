/** Sessions with an injected clock: 24 hours of inactivity end them, use keeps them alive; cookie names and attributes. */
import { beforeEach, expect, test } from "bun:test";
import type { User } from "../../src/domain/types.ts";
import { newId } from "../../src/domain/ids.ts";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.ts";
import {
  authenticateSession,
  presentedSession,
  SESSION_IDLE_MS,
  sessionCookieHeader,
  signOut,
  startSession,
} from "../../src/services/sessions.ts";

let store: SqliteStore;
let user: User;

beforeEach(async () => {
  store = new SqliteStore(":memory:");
  await store.migrate();
  await store.createOrganization({ id: "org_1", name: "Acme", tier: "enterprise", createdAt: 0 });
  user = { id: newId("usr"), orgId: "org_1", email: "ann@acme.test", role: "member", createdAt: 0 };
  await store.createUser(user);
});

test("a session survives while used and ends after 24 hours idle", async () => {
  let now = 1_000_000;
  const id = await startSession(store, user, now);
  for (let i = 0; i < 5; i++) {
    now += SESSION_IDLE_MS - 1000;
    expect((await authenticateSession(store, id, now))?.id).toBe(user.id);
  }
  now += SESSION_IDLE_MS + 1;
  expect(await authenticateSession(store, id, now)).toBeNull();
  // Ended for good: going back in time does not revive it.
  expect(await authenticateSession(store, id, now - SESSION_IDLE_MS)).toBeNull();
});

test("sign-out deletes the session and audits it", async () => {
  const id = await startSession(store, user, 10);
  await signOut(store, id, { ip: "1.2.3.4", userAgent: "test" }, 20);
  expect(await authenticateSession(store, id, 30)).toBeNull();
  const audit = await store.listAudit("org_1", { limit: 5, before: null });
  expect(audit.entries[0]).toMatchObject({ action: "session.sign-out", actor: `user:${user.id}`, ip: "1.2.3.4" });
});

test("cookies: __Host- prefix and Secure on https, plain on http; only the name set is read", () => {
  expect(sessionCookieHeader("v", 86400, true)).toBe("__Host-gw_session=v; Path=/; HttpOnly; SameSite=Lax; Max-Age=86400; Secure");
  expect(sessionCookieHeader("v", 0, false)).toBe("gw_session=v; Path=/; HttpOnly; SameSite=Lax; Max-Age=0");
  expect(presentedSession(new Headers({ cookie: "a=b; __Host-gw_session=x" }), true)).toBe("x");
  expect(presentedSession(new Headers({ cookie: "gw_session=y" }), false)).toBe("y");
  // On https a cookie without the prefix (planted by a sibling subdomain, or over http) is no session.
  expect(presentedSession(new Headers({ cookie: "gw_session=y" }), true)).toBeNull();
  expect(presentedSession(new Headers({ cookie: "__Host-gw_session=x" }), false)).toBeNull();
  expect(presentedSession(new Headers(), true)).toBeNull();
});
