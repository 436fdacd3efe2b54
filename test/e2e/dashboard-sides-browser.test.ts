/**
 * The dashboard in a real browser says which side of the organization it acts on and sends
 * it as the request's `context.scope` (docs/operations.md). Providers: an admin lists and
 * adds the organization's providers or their own, a member adds their own with the form as
 * it opens, and the organization's side offers a member nothing to add. The routing
 * playground: the side chosen is the one whose key the provider sees.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { CLI_ACTOR } from "../../src/domain/identity.ts";
import { addMember } from "../../src/services/organizations.ts";
import { type DashboardBrowser, startDashboardBrowser } from "../support/dashboard-browser.ts";

let b: DashboardBrowser;
/** Each gateway operation the page sent: its name, params and context. */
const sent: { operation: string; params: Record<string, unknown>; context?: { scope?: string } }[] = [];

/** An operation with the admin service account's key (`gateway init`'s). */
async function asAdmin(operation: string, params: unknown) {
  const res = await fetch(`${b.base}/api/v1/gateway`, {
    method: "POST",
    headers: { authorization: `Bearer ${b.adminKey}`, "content-type": "application/json" },
    body: JSON.stringify({ operation, params }),
  });
  return { status: res.status, body: (await res.json()) as any };
}

beforeAll(async () => {
  b = await startDashboardBrowser();
  b.page.on("request", (r) => {
    if (r.method() === "POST" && r.url().endsWith("/api/v1/gateway")) sent.push(JSON.parse(r.postData() ?? "{}"));
  });
  // The organization's provider, added with the admin service account's key (a service account's default side).
  const made = await asAdmin("provider.create", {
    provider: "openai",
    name: "org-openai",
    apiKey: "sk-organization-0001",
    baseUrl: `${b.mock.url}/v1`,
  });
  expect(made.status).toBe(200);
  await addMember(b.rt.services, CLI_ACTOR, b.orgId, { email: "member@acme.test", role: "member" });
}, 60_000);

afterAll(async () => {
  await b?.stop();
});

/** The providers listed, by name, each with whose it is. */
const listed = async () => {
  const table = b.page.getByRole("table", { name: "Configured providers" });
  if ((await table.count()) === 0) return {};
  const rows = await table.locator("tbody tr").all();
  return Object.fromEntries(
    await Promise.all(rows.map(async (r) => [await r.locator("td").nth(0).innerText(), await r.locator("td").nth(4).innerText()])),
  );
};

async function addProvider(kind: string, name: string, key: string) {
  const { page } = b;
  await page.getByRole("button", { name: "Add a provider" }).click();
  await page.getByLabel("Kind").fill(kind);
  await page.getByLabel("Name (optional)").fill(name);
  await page.getByLabel("API key").fill(key);
  await page.getByLabel("Base URL (optional)").fill(`${b.mock.url}/v1`);
  await page.getByRole("button", { name: "Add provider" }).click();
  // Added, or refused in words (the refusal is the failure to report).
  const refusal = page.getByRole("form", { name: "Add a provider" }).getByRole("alert");
  await Promise.race([page.getByRole("cell", { name, exact: true }).waitFor(), refusal.waitFor()]);
  if (await refusal.count()) throw new Error(`adding ${name} was refused: ${await refusal.innerText()}`);
}

/** Picks a side on the Providers page and waits until the list of that side is shown. */
async function actFor(side: string) {
  const { page } = b;
  const answered = page.waitForResponse(
    (r) => r.url().endsWith("/api/v1/gateway") && r.request().postData()?.includes('"provider.list"') === true,
  );
  await page.getByRole("radio", { name: side }).check();
  await answered;
  await page.getByText("Loading providers…").waitFor({ state: "detached" });
}

const stored = async (name: string) => (await b.rt.store.listProviderConfigs(b.orgId)).find((p) => p.name === name);
const lastSent = (operation: string) => sent.filter((s) => s.operation === operation).at(-1);

test("a member adds their own provider with the form as it opens, and sees the organization's side as read-only", async () => {
  const { page } = b;
  await b.signIn("member@acme.test");
  await b.openPage("Providers");
  // No side chosen: the member's own, the operation's default for a person (the organization's is an admin's act).
  await addProvider("openai", "member-openai", "sk-member-own-0002");
  expect(await page.getByTestId("acting-for").innerText()).toBe("The organization's providers and your own.");
  const member = await b.rt.store.getUserByEmail("member@acme.test");
  expect((await stored("member-openai"))?.ownerUserId).toBe(member!.id);
  expect(lastSent("provider.create")?.params.scope).toBeUndefined();
  expect(await listed()).toEqual({ "org-openai": "the organization", "member-openai": "you" });

  await actFor("the organization (Acme)");
  await page.getByTestId("acting-for").getByText("Acting for the organization (Acme)").waitFor();
  expect(lastSent("provider.list")?.context).toEqual({ scope: "organization" });
  expect(await listed()).toEqual({ "org-openai": "the organization" });
  expect(await page.getByRole("button", { name: "Add a provider" }).count()).toBe(0);
  await page.getByText("Only organization admins add the organization's providers.").waitFor();

  await actFor("yourself (member@acme.test)");
  expect(lastSent("provider.list")?.context).toEqual({ scope: "user" });
  expect(await listed()).toEqual({ "member-openai": "you" });
  expect(b.pageErrors).toEqual([]);
}, 60_000);

test("an admin acts for the organization or for themself: each side lists and adds its own providers", async () => {
  const { page } = b;
  await b.signIn("admin@acme.test");
  await b.openPage("Providers");
  // No side: every provider, each member's own named by its owner's address (once the members are loaded).
  await page.getByRole("cell", { name: "member@acme.test" }).waitFor();
  expect(await page.getByTestId("acting-for").innerText()).toBe(
    "Every provider of the organization: the organization's and each member's own.",
  );
  expect(await listed()).toEqual({ "org-openai": "the organization", "member-openai": "member@acme.test" });

  await actFor("yourself (admin@acme.test)");
  await page.getByText("No provider on this side yet.").waitFor();
  expect(await page.getByTestId("acting-for").innerText()).toContain("Acting for yourself (admin@acme.test)");
  await addProvider("openai", "admin-own", "sk-admin-own-0004");
  const admin = await b.rt.store.getUserByEmail("admin@acme.test");
  expect((await stored("admin-own"))?.ownerUserId).toBe(admin!.id);
  const created = lastSent("provider.create")!;
  expect(created.context).toEqual({ scope: "user" });
  expect(created.params.scope).toBeUndefined();
  expect(await listed()).toEqual({ "admin-own": "you" });

  await actFor("the organization (Acme)");
  expect(await page.getByTestId("acting-for").innerText()).toContain("Acting for the organization (Acme)");
  await addProvider("anthropic", "team-claude", "sk-ant-team-0003");
  expect((await stored("team-claude"))?.ownerUserId).toBeNull();
  expect(lastSent("provider.create")?.context).toEqual({ scope: "organization" });
  expect(await listed()).toEqual({ "org-openai": "the organization", "team-claude": "the organization" });
  await b.shot("providers-acting-for");
  expect(b.pageErrors).toEqual([]);
}, 60_000);

test("the routing playground is answered with the key of the side chosen", async () => {
  const { page } = b;
  // Only OpenAI providers, the member's and the organization's, so every strategy picks the same model and only the side decides the key.
  expect((await asAdmin("provider.delete", { id: (await stored("team-claude"))!.id })).status).toBe(200);
  await b.signIn("member@acme.test");
  await b.openPage("Routing playground");
  /** The provider keys the mock saw on the chat calls of one routing (one call a strategy). */
  const keysOfOneRouting = async () => {
    const before = (await b.mock.requests()).length;
    await page.getByLabel("Prompt").fill("Say hello.");
    const last = page.waitForResponse(
      (r) => r.url().endsWith("/api/v1/gateway") && r.request().postData()?.includes('"balanced"') === true,
    );
    await page.getByRole("button", { name: "Route with each strategy" }).click();
    const answer = await last;
    expect(answer.status()).toBe(200);
    const seen = (await b.mock.requests()).slice(before).filter((r) => r.path === "/v1/chat/completions");
    expect(seen.length).toBe(4);
    return [...new Set(seen.map((r) => r.authorization))];
  };
  // No side: the member's own key first.
  expect(await keysOfOneRouting()).toEqual(["Bearer sk-member-own-0002"]);
  expect(lastSent("ai.route")?.context).toBeUndefined();
  await page.getByRole("radio", { name: "the organization (Acme)" }).check();
  expect(await keysOfOneRouting()).toEqual(["Bearer sk-organization-0001"]);
  expect(lastSent("ai.route")?.context).toEqual({ scope: "organization" });
  await page.getByRole("radio", { name: "yourself (member@acme.test)" }).check();
  expect(await keysOfOneRouting()).toEqual(["Bearer sk-member-own-0002"]);
  expect(lastSent("ai.route")?.context).toEqual({ scope: "user" });
  await page.getByTestId("route-decisions").waitFor();
  expect(b.pageErrors).toEqual([]);
}, 60_000);
