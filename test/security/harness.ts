/**
 * The attack suite's gateway: the real runtime and HTTP application in this process
 * (requests go through `app.handle`), a fresh data folder, an initialized
 * organization, and helpers to act as each kind of caller: the admin key, a member
 * key, a sandbox key, and signed-in admins and members.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config.ts";
import { createApp } from "../../src/http/app.ts";
import { createLogger } from "../../src/lib/log.ts";
import { createRuntime, type Runtime } from "../../src/runtime.ts";
import { CLI_ACTOR } from "../../src/domain/identity.ts";
import { addMember, initializeOrganization, type InitializedOrganization } from "../../src/services/organizations.ts";
import { createServiceAccountWithKey } from "../../src/services/service-accounts.ts";
import { startSession } from "../../src/services/sessions.ts";

export const ORIGIN = "http://gw.test";

/** The operations the attack ran with a sandbox admin key: admin operations, each refused to that key with 403. */
export const SANDBOX_ADMIN_ATTACKED_OPERATIONS = [
  "org.api-key.rotate",
  "org.member.update-role",
  "org.member.remove",
  "org.service-account.delete",
  "org.webhook-secret.rotate",
];

export interface Caller {
  /** Headers that authenticate this caller (a key, or a session cookie with our Origin). */
  headers: Record<string, string>;
  label: string;
}

export interface Harness {
  rt: Runtime;
  app: ReturnType<typeof createApp>;
  /** The gateway's warning and error log lines so far. */
  logLines: string[];
  org: InitializedOrganization;
  admin: Caller;
  adminSession: Caller;
  member: Caller;
  memberSession: Caller;
  /** A member-role service account, created (as every service account is) by the admin. */
  memberKey: Caller;
  sandboxAdminKey: Caller;
  /** Any request, through the whole HTTP application. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** `POST /api/v1/gateway` as `who`. */
  op(who: Caller, operation: string, params?: unknown): Promise<{ status: number; body: any; headers: Headers }>;
  /** `POST /v1/chat/completions` as `who`: `model` asked "hi", with any further body fields in `extra`. */
  chat(who: Caller, model: string, extra?: Record<string, unknown>): Promise<Response>;
  close(): Promise<void>;
}

export async function startHarness(env: Record<string, string> = {}): Promise<Harness> {
  const dataDir = mkdtempSync(join(tmpdir(), "gw-security-"));
  const config = loadConfig({ data: dataDir }, { GW_PUBLIC_URL: ORIGIN, GW_LOG_LEVEL: "silent", GW_ALLOW_PRIVATE_PROVIDERS: "1", ...env });
  const logLines: string[] = [];
  // Warnings and errors are kept, so tests can read what an operator would see.
  const rt = await createRuntime(
    config,
    createLogger("warn", (chunk) => logLines.push(...chunk.trim().split("\n"))),
  );
  const app = createApp(rt);
  const deps = rt.services;
  const org = await initializeOrganization(deps, { name: "Attacked Org", adminEmail: "admin@example.com", tier: "enterprise" });
  const member = await addMember(deps, CLI_ACTOR, org.organization.id, { email: "member@example.com", role: "member" });
  const memberSa = await createServiceAccountWithKey(deps, CLI_ACTOR, org.organization, org.user.id, {
    serviceAccountName: "member-bot",
    role: "member",
    name: "k",
    keyType: "live",
  });
  const sandboxSa = await createServiceAccountWithKey(deps, CLI_ACTOR, org.organization, org.user.id, {
    serviceAccountName: "sandbox-admin",
    role: "admin",
    name: "k",
    keyType: "test",
  });
  const session = async (user: { id: string }) => {
    const stored = await rt.store.getUser(user.id);
    return `gw_session=${await startSession(rt.store, stored!, Date.now())}`;
  };
  const key = (value: string, label: string): Caller => ({ headers: { authorization: `Bearer ${value}` }, label });
  const cookie = (c: string, label: string): Caller => ({ headers: { cookie: c, origin: ORIGIN }, label });
  const h: Harness = {
    rt,
    app,
    logLines,
    org,
    admin: key(org.keyValue, "admin key"),
    adminSession: cookie(await session(org.user), "admin session"),
    member: cookie(await session(member), "member session"),
    memberSession: cookie(await session(member), "member session"),
    memberKey: key(memberSa.keyValue, "member key"),
    sandboxAdminKey: key(sandboxSa.keyValue, "sandbox admin key"),
    fetch: (path, init) => app.handle(new Request(`${ORIGIN}${path}`, init)),
    async op(who, operation, params = {}) {
      const res = await h.fetch("/api/v1/gateway", {
        method: "POST",
        headers: { "content-type": "application/json", ...who.headers },
        body: JSON.stringify({ operation, params }),
      });
      return { status: res.status, body: await res.json(), headers: res.headers };
    },
    chat: (who, model, extra = {}) =>
      h.fetch("/v1/chat/completions", {
        method: "POST",
        headers: { "content-type": "application/json", ...who.headers },
        body: JSON.stringify({ model, messages: [{ role: "user", content: "hi" }], ...extra }),
      }),
    async close() {
      await rt.shutdown();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return h;
}
