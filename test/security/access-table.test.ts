/**
 * Every registered operation against every kind of caller, read from the registry
 * itself, so an operation added later is covered without anyone listing it. The probe
 * that found the hole: a sandbox key of an admin service account ran org.api-key.rotate
 * on the live admin key and got a new live admin key, and also ran
 * org.member.update-role, org.member.remove, org.service-account.delete,
 * org.webhook-secret.rotate and user.sessions.end-all, because the flag that refused it
 * was optional and the operations added later left it out.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type Access, ACCESS_LEVELS, accessCases, accessFor } from "../../src/ops/access.ts";
import { CLI_ACTOR } from "../../src/domain/identity.ts";
import { addMember } from "../../src/services/organizations.ts";
import { removeMember } from "../../src/services/org-admin.ts";
import { startSession } from "../../src/services/sessions.ts";
import { mockPerFile } from "../support/mock-per-file.ts";
import { type Caller, type Harness, ORIGIN, SANDBOX_ADMIN_ATTACKED_OPERATIONS, startHarness } from "./harness.ts";

type CallerKind =
  | "sandbox admin key"
  | "live member key"
  | "live admin key"
  | "member session"
  | "admin session"
  | "removed member session";

/** The rule, written out here rather than read from the code under test: what each caller gets at each level. */
const EXPECTED: Record<CallerKind, Record<Access, "allowed" | "refused" | "unauthenticated">> = {
  "sandbox admin key": { read: "allowed", "admin-read": "allowed", call: "allowed", "member-write": "refused", admin: "refused" },
  "live member key": { read: "allowed", "admin-read": "refused", call: "allowed", "member-write": "allowed", admin: "refused" },
  "live admin key": { read: "allowed", "admin-read": "allowed", call: "allowed", "member-write": "allowed", admin: "allowed" },
  "member session": { read: "allowed", "admin-read": "refused", call: "allowed", "member-write": "allowed", admin: "refused" },
  "admin session": { read: "allowed", "admin-read": "allowed", call: "allowed", "member-write": "allowed", admin: "allowed" },
  "removed member session": {
    read: "unauthenticated",
    "admin-read": "unauthenticated",
    call: "unauthenticated",
    "member-write": "unauthenticated",
    admin: "unauthenticated",
  },
};

const mock = mockPerFile();
let h: Harness;
let callers: Record<CallerKind, () => Promise<Caller>>;

beforeAll(async () => {
  h = await startHarness();
  const store = h.rt.store;
  const sessionOf = (userId: string, label: string) => async (): Promise<Caller> => {
    // A fresh session each time: user.sessions.end-all ends the caller's own.
    const user = await store.getUser(userId);
    if (!user) throw new Error(`no user ${userId}`);
    return { headers: { cookie: `gw_session=${await startSession(store, user, Date.now())}`, origin: ORIGIN }, label };
  };
  const member = await store.getUserByEmail("member@example.com");
  const leaving = await addMember(h.rt.services, CLI_ACTOR, h.org.organization.id, { email: "leaving@example.com", role: "admin" });
  const removedCookie = await startSession(store, leaving, Date.now());
  await removeMember(h.rt.services, CLI_ACTOR, h.org.organization.id, leaving.id);
  callers = {
    "sandbox admin key": async () => h.sandboxAdminKey,
    "live member key": async () => h.memberKey,
    "live admin key": async () => h.admin,
    "member session": sessionOf(member!.id, "member session"),
    "admin session": sessionOf(h.org.user.id, "admin session"),
    "removed member session": async () => ({ headers: { cookie: `gw_session=${removedCookie}`, origin: ORIGIN }, label: "removed" }),
  };
});

afterAll(async () => {
  await h.close();
});

/** The newest audit entry: the refusal's, when there was one. */
async function newestAudit() {
  return (await h.rt.store.listAudit(h.org.organization.id, { limit: 1, before: null })).entries[0] ?? null;
}

describe("every operation, every caller", () => {
  test("each operation declares one of the access levels", () => {
    const ops = h.rt.operations.ids();
    expect(ops.length).toBeGreaterThan(20);
    for (const id of ops) {
      const declared = h.rt.operations.declaredAccess(id);
      expect(declared, id).toBeDefined();
      for (const { params, access } of accessCases(declared!)) {
        expect(ACCESS_LEVELS, id).toContain(access);
        expect(accessFor(declared!, params), id).toBe(access);
      }
    }
  });

  test("the answer is the table's: refused is 403 and audited, allowed is never 403", async () => {
    const mismatches: string[] = [];
    for (const id of h.rt.operations.ids()) {
      // Each level the declaration can mean: `{}`, and the param that changes it (a `set`, a member's id, a scope).
      for (const { params, access } of accessCases(h.rt.operations.declaredAccess(id)!)) {
        for (const kind of Object.keys(EXPECTED) as CallerKind[]) {
          const expected = EXPECTED[kind][access];
          const before = await newestAudit();
          const r = await h.op(await callers[kind](), id, params);
          const after = await newestAudit();
          const where = `${id} ${JSON.stringify(params)} as ${kind} (${access})`;
          const denied = after !== null && after.id !== before?.id && after.action === "access.denied" && after.target === id;
          if (expected === "unauthenticated" && r.status !== 401) mismatches.push(`${where}: ${r.status}, expected 401`);
          if (expected === "allowed" && (r.status === 403 || denied)) mismatches.push(`${where}: refused (${r.status}), expected allowed`);
          if (expected === "refused") {
            if (r.status !== 403 || !denied) mismatches.push(`${where}: ${r.status}${denied ? "" : ", not audited"}, expected 403`);
          }
        }
      }
    }
    expect(mismatches).toEqual([]);
  });

  test("context.scope stands for the scope param it fills: the same level, refused and audited alike", async () => {
    const viaContext = async (who: Caller, id: string, params: Record<string, unknown>, scope: unknown) => {
      const res = await h.fetch("/api/v1/gateway", {
        method: "POST",
        headers: { "content-type": "application/json", ...who.headers },
        body: JSON.stringify({ operation: id, params, context: { scope } }),
      });
      return res.status;
    };
    const mismatches: string[] = [];
    let cases = 0;
    for (const id of h.rt.operations.ids()) {
      const declared = h.rt.operations.declaredAccess(id)!;
      if (h.rt.operations.contextScope(id) !== "param" || typeof declared === "string" || declared.param !== "scope") continue;
      for (const { params, access } of accessCases(declared)) {
        if (params.scope === undefined) continue;
        const { scope, ...rest } = params;
        cases++;
        for (const kind of Object.keys(EXPECTED) as CallerKind[]) {
          const expected = EXPECTED[kind][access];
          const before = await newestAudit();
          const status = await viaContext(await callers[kind](), id, rest, scope);
          const after = await newestAudit();
          const where = `${id} with context.scope ${JSON.stringify(scope)} as ${kind} (${access})`;
          const denied = after !== null && after.id !== before?.id && after.action === "access.denied" && after.target === id;
          if (expected === "unauthenticated" && status !== 401) mismatches.push(`${where}: ${status}, expected 401`);
          if (expected === "allowed" && (status === 403 || denied)) mismatches.push(`${where}: refused (${status}), expected allowed`);
          if (expected === "refused" && (status !== 403 || !denied)) mismatches.push(`${where}: ${status}${denied ? "" : ", not audited"}, expected 403`);
        }
      }
    }
    // provider.create's `scope: "organization"` at least.
    expect(cases).toBeGreaterThan(0);
    expect(mismatches).toEqual([]);
  });

  test("the operations the attack ran with a sandbox admin key are admin operations", () => {
    for (const id of SANDBOX_ADMIN_ATTACKED_OPERATIONS) expect(h.rt.operations.declaredAccess(id), id).toBe("admin");
    const endAll = h.rt.operations.declaredAccess("user.sessions.end-all")!;
    expect(accessFor(endAll, {})).toBe("member-write");
    expect(accessFor(endAll, { userId: "usr_x" })).toBe("admin");
  });

  test("a sandbox admin key's refusals name the sandbox and leave the live admin key alone", async () => {
    const r = await h.op(h.sandboxAdminKey, "org.api-key.rotate", { keyId: h.org.apiKey.id });
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ success: false, code: "forbidden" });
    expect(r.body.error).toContain("sandbox");
    expect((await h.rt.store.getApiKey(h.org.apiKey.id))?.revokedAt).toBeNull();
  });
});

describe("a sandbox key never causes a provider call", () => {
  test("not through provider.test, ai.proxy, ai.route, ai.models or any other operation", async () => {
    const created = await h.op(h.admin, "provider.create", {
      provider: "openai",
      name: "stored",
      apiKey: "sk-live-stored-key-0000",
      baseUrl: `${mock.url}/v1`,
      scope: "organization",
    });
    expect(created.status).toBe(200);
    const providerId = created.body.data.provider.id as string;
    const sent = async () => ((await mock.requests()) as unknown[]).length;
    const before = await sent();
    const chat = { model: "stored/gpt-4o-mini", messages: [{ role: "user", content: "hello" }] };
    const test_ = await h.op(h.sandboxAdminKey, "provider.test", { id: providerId });
    expect(test_.status).toBe(403);
    expect((await h.op(h.sandboxAdminKey, "ai.proxy", { provider: "stored", model: "gpt-4o-mini", messages: chat.messages })).status).toBe(
      200,
    );
    expect((await h.op(h.sandboxAdminKey, "ai.route", { strategy: "cost", messages: chat.messages })).status).not.toBe(403);
    expect((await h.op(h.sandboxAdminKey, "ai.models")).status).toBe(200);
    for (const id of h.rt.operations.ids()) await h.op(h.sandboxAdminKey, id, { id: providerId });
    expect(await sent()).toBe(before);
    // The same provider.test with a live key does reach the mock, so the count above can see a call.
    expect((await h.op(h.admin, "provider.test", { id: providerId })).body.data.reachable).toBe(true);
    expect(await sent()).toBeGreaterThan(before);
  });
});
