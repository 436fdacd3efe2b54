/**
 * Which stored provider key answers a call, over HTTP, told apart by the key the mock
 * provider receives. A service account: the organization's provider, then its
 * creator's, never another member's (their owner may point them anywhere: see
 * docs/security.md). A signed-in user: their own, then the organization's, never
 * another member's.
 */
import { beforeAll, expect, test } from "bun:test";
import { runCli } from "../support/gateway-process.ts";
import { stackPerFile } from "../support/stack.ts";

let botKey: string;
const sessions: Record<string, string> = {};

async function signIn(email: string): Promise<string> {
  const link = await runCli(["login-link", "--data", stack.gw.dataDir, "--email", email, "--public-url", stack.gw.url]);
  expect(link.code).toBe(0);
  const res = await fetch(link.stdout.trim(), { redirect: "manual" });
  expect(res.status).toBe(303);
  return (res.headers.get("set-cookie") ?? "").split(";")[0] as string;
}

const stack = stackPerFile({ adminEmail: "alice@example.com" });

beforeAll(async () => {
  const dataDir = stack.gw.dataDir;
  // Bob joins before Carol; Dave never adds a key of his own.
  for (const email of ["bob@example.com", "carol@example.com", "dave@example.com"])
    expect((await runCli(["user", "add", "--data", dataDir, "--email", email])).code).toBe(0);
  for (const who of ["alice", "bob", "carol", "dave"]) sessions[who] = await signIn(`${who}@example.com`);
  // The admin key's service account was created for Alice, so this one is created by Alice too.
  const bot = await stack.gw.op(stack.org.apiKey, "org.service-account.create", { serviceAccountName: "bot" });
  expect(bot.body.data.serviceAccount.createdBy).toBe(stack.org.userId);
  botKey = bot.body.data.apiKey.key;
}, 30_000); // seven command-line runs

/** Calls as a session user: browser calls that change state send the gateway's own origin. */
const asUser = (who: string, path: string, body: object) =>
  fetch(`${stack.gw.url}${path}`, {
    method: "POST",
    headers: { cookie: sessions[who] as string, origin: stack.gw.url, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

async function addKey(who: string, name: string, apiKey: string, scope: "user" | "organization" = "user") {
  const res = await asUser(who, "/api/v1/gateway", {
    operation: "provider.create",
    params: { provider: "openai", name, apiKey, baseUrl: `${stack.mock.url}/v1`, scope },
  });
  expect(res.status).toBe(200);
}

const CHAT = { model: "gpt-4o", messages: [{ role: "user", content: "which key?" }] };

/** The provider key the mock received for one chat call, or the gateway's error code. */
async function keyUsedBy(caller: { bot: true } | { user: string }): Promise<string> {
  const res =
    "bot" in caller
      ? await fetch(`${stack.gw.url}/v1/chat/completions`, {
          method: "POST",
          headers: { authorization: `Bearer ${botKey}`, "content-type": "application/json" },
          body: JSON.stringify(CHAT),
        })
      : await asUser(caller.user, "/v1/chat/completions", CHAT);
  const body = (await res.json()) as any;
  if (res.status !== 200) return body.error.code;
  return ((await stack.mock.requests()).at(-1)?.authorization ?? "").replace(/^Bearer /, "");
}

test("a service account never uses other members' personal keys at an address of their choosing", async () => {
  await addKey("bob", "openai-bob", "sk-member-bob-000000");
  await addKey("carol", "openai-carol", "sk-member-carol-0000");
  expect(await keyUsedBy({ bot: true })).toBe("provider_not_configured");
});

test("its creator's key comes before other members'; a user never borrows another member's", async () => {
  await addKey("alice", "openai-alice", "sk-creator-alice-000");
  expect(await keyUsedBy({ bot: true })).toBe("sk-creator-alice-000");
  expect(await keyUsedBy({ user: "dave" })).toBe("provider_not_configured");
});

test("the organization's key comes first for a service account; a user's own key comes first for them", async () => {
  await addKey("alice", "openai-org", "sk-organization-00000", "organization");
  expect(await keyUsedBy({ bot: true })).toBe("sk-organization-00000");
  expect(await keyUsedBy({ user: "bob" })).toBe("sk-member-bob-000000");
  expect(await keyUsedBy({ user: "carol" })).toBe("sk-member-carol-0000");
  expect(await keyUsedBy({ user: "alice" })).toBe("sk-creator-alice-000");
  expect(await keyUsedBy({ user: "dave" })).toBe("sk-organization-00000");
});

test("removing a key moves the next one up at once", async () => {
  const providers = (await stack.gw.op(stack.org.apiKey, "provider.list")).body.data.providers as { id: string; name: string }[];
  const id = (name: string) => providers.find((p) => p.name === name)?.id;
  expect((await stack.gw.op(stack.org.apiKey, "provider.delete", { id: id("openai-org") })).status).toBe(200);
  expect(await keyUsedBy({ bot: true })).toBe("sk-creator-alice-000");
  expect(await keyUsedBy({ user: "dave" })).toBe("provider_not_configured");
  expect((await stack.gw.op(stack.org.apiKey, "provider.delete", { id: id("openai-bob") })).status).toBe(200);
  expect(await keyUsedBy({ user: "bob" })).toBe("provider_not_configured");
});
