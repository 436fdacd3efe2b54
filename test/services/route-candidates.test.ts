/** The router's candidate table: which configured models a caller may be routed to, with this node's health. */
import { expect, test } from "bun:test";
import type { ProviderConfigRecord } from "../../src/domain/types.ts";
import { configuredProviderVerdicts } from "../../src/policy/provider-authorization.ts";
import { Catalog } from "../../src/providers/catalog/catalog.ts";
import { decide } from "../../src/routing/decide.ts";
import { DECLARED_QUALITY, routeCandidates } from "../../src/services/route-candidates.ts";
import { MemoryProviderDirectory } from "../../src/state/provider-directory.ts";
import { ProviderHealth } from "../../src/state/provider-health.ts";
import { openPlain, providerRecord, serviceAccount, user } from "../policy/fixtures.ts";

const catalog = Catalog.builtIn();

async function live(records: ProviderConfigRecord[]) {
  const directory = new MemoryProviderDirectory(
    async () => records,
    openPlain,
    (kind, rec) => configuredProviderVerdicts(catalog, kind, rec),
  );
  return directory.get("org_t");
}

const openai = providerRecord({ id: "p-openai", name: "mock-openai" });
const anthropic = providerRecord({ id: "p-anthropic", name: "mock-anthropic", provider: "anthropic", format: "messages" });
const local = providerRecord({
  id: "p-local",
  name: "ollama",
  provider: "self-hosted",
  baseUrl: "http://127.0.0.1:11434/v1",
  country: "US",
  models: ["llama3.1:8b", "gpt-4o-mini"],
});
const blocked = providerRecord({
  id: "p-blocked",
  name: "far-away",
  provider: "custom",
  baseUrl: "http://127.0.0.1:1/v1",
  country: "CN",
  models: ["qwen"],
});

test("every catalog model of each authorized provider, and the declared models of self-hosted ones", async () => {
  const health = new ProviderHealth();
  const table = routeCandidates(await live([openai, anthropic, local, blocked]), serviceAccount(null), { catalog, health });
  const byProvider = (name: string) => table.filter((c) => c.providerName === name).map((c) => c.model);
  expect(byProvider("mock-openai")).toEqual(catalog.modelsFor("openai").map((m) => m.id));
  expect(byProvider("mock-anthropic")).toEqual(catalog.modelsFor("anthropic").map((m) => m.id));
  expect(byProvider("ollama")).toEqual(["llama3.1:8b", "gpt-4o-mini"]);
  expect(byProvider("far-away")).toEqual([]);
  const llama = table.find((c) => c.model === "llama3.1:8b")!;
  expect(llama).toMatchObject({ inputPerMTok: 0, outputPerMTok: 0, quality: DECLARED_QUALITY, unavailable: null });
  // A declared model the catalog knows keeps the catalog's description.
  expect(table.find((c) => c.providerName === "ollama" && c.model === "gpt-4o-mini")!.quality).toBe(catalog.model("gpt-4o-mini")!.quality);
});

test("the messages endpoint's filter keeps messages-format providers only; a family filter narrows models", async () => {
  const health = new ProviderHealth();
  const providers = await live([openai, anthropic]);
  const messages = routeCandidates(providers, serviceAccount(null), { catalog, health }, { format: "messages" });
  expect(new Set(messages.map((c) => c.providerName))).toEqual(new Set(["mock-anthropic"]));
  // The cloud platform counts with its anthropic. models only.
  const platform = providerRecord({ id: "p-bedrock", name: "platform", provider: "bedrock", format: "bedrock" });
  const withPlatform = routeCandidates(
    await live([openai, anthropic, platform]),
    serviceAccount(null),
    { catalog, health },
    { format: "messages" },
  );
  const platformModels = withPlatform.filter((c) => c.providerName === "platform").map((c) => c.model);
  expect(platformModels.length).toBeGreaterThan(0);
  expect(platformModels).toEqual(
    catalog
      .modelsFor("bedrock")
      .map((m) => m.id)
      .filter((id) => id.startsWith("anthropic.")),
  );
  const family = routeCandidates(providers, serviceAccount(null), { catalog, health }, { models: (id) => id.startsWith("gpt-4o") });
  expect(family.map((c) => c.model)).toEqual(["gpt-4o", "gpt-4o-mini"]);
});

test("measured latency, error rate, cooldown and limits come from this node's state", async () => {
  let now = 0;
  const health = new ProviderHealth({ now: () => now, failureThreshold: 1 });
  for (let i = 0; i < 3; i++) health.recordSuccess("p-openai", "gpt-4o", 10, 42);
  health.recordFailure("p-anthropic", "claude-haiku-4-5");
  const table = routeCandidates(await live([openai, anthropic, local]), serviceAccount(null), {
    catalog,
    health,
    atLimit: (id) => id === "p-local",
  });
  const find = (model: string, provider: string) => table.find((c) => c.model === model && c.providerName === provider)!;
  expect(find("gpt-4o", "mock-openai").latencyMs).toBe(42);
  expect(find("gpt-4o-mini", "mock-openai").latencyMs).toBe(catalog.model("gpt-4o-mini")!.latencyMs);
  expect(find("claude-haiku-4-5", "mock-anthropic")).toMatchObject({ unavailable: "cooldown" });
  expect(find("claude-haiku-4-5", "mock-anthropic").errorRate).toBeGreaterThan(0);
  expect(find("llama3.1:8b", "ollama").unavailable).toBe("limit");
  now += 60_000;
  const later = routeCandidates(await live([anthropic]), serviceAccount(null), { catalog, health });
  expect(later.every((c) => c.unavailable === null)).toBe(true);
});

test("a starter organization is not offered providers outside its tier", async () => {
  const table = routeCandidates(await live([openai, local]), serviceAccount(null, "starter"), { catalog, health: new ProviderHealth() });
  expect(new Set(table.map((c) => c.providerName))).toEqual(new Set(["mock-openai"]));
});

test("the table kept for a provider list is per caller, and a provider change (a new list) is seen at once", async () => {
  const health = new ProviderHealth();
  const mine = providerRecord({ id: "p-mine", name: "alice-openai", ownerUserId: "u_alice", baseUrl: "http://127.0.0.1:8080/v1" });
  const providers = await live([openai, mine, local]);
  const names = (t: { providerName: string }[]) => new Set(t.map((c) => c.providerName));
  // Asked twice in a row, in either order: each caller keeps their own table.
  for (let i = 0; i < 2; i++) {
    expect(names(routeCandidates(providers, user("u_alice"), { catalog, health }))).toEqual(
      new Set(["alice-openai", "mock-openai", "ollama"]),
    );
    expect(names(routeCandidates(providers, user("u_bob"), { catalog, health }))).toEqual(new Set(["mock-openai", "ollama"]));
    expect(names(routeCandidates(providers, serviceAccount("u_alice"), { catalog, health }))).toEqual(
      new Set(["alice-openai", "mock-openai", "ollama"]),
    );
    expect(names(routeCandidates(providers, serviceAccount("u_alice", "starter"), { catalog, health }))).toEqual(
      new Set(["alice-openai", "mock-openai"]),
    );
  }
  // The directory loads a new list when the organization's providers change: the new configuration is a candidate.
  const changed = await live([openai, mine, local, anthropic]);
  expect(names(routeCandidates(changed, user("u_bob"), { catalog, health }))).toEqual(new Set(["mock-openai", "ollama", "mock-anthropic"]));
  // Health is read per call, not kept with the table.
  for (let i = 0; i < 3; i++) health.recordSuccess("p-openai", "gpt-4o", 5, 77);
  const gpt4o = routeCandidates(providers, user("u_bob"), { catalog, health }).find((c) => c.model === "gpt-4o")!;
  expect(gpt4o.latencyMs).toBe(77);
});

test("one caller's record, seen again with another tier or for another endpoint, gets that shape's table", async () => {
  const health = new ProviderHealth();
  const mine = providerRecord({ id: "p-mine", name: "alice-openai", ownerUserId: "u_alice", baseUrl: "http://127.0.0.1:8080/v1" });
  const providers = await live([openai, mine, local, anthropic]);
  const names = (t: { providerName: string }[]) => new Set(t.map((c) => c.providerName));
  // The key cache hands out one service account object for as long as it holds the key; the organization is not that record's.
  const alice = serviceAccount("u_alice");
  const aliceStarter = { ...alice, organization: { ...alice.organization, tier: "starter" as const } };
  for (let i = 0; i < 2; i++) {
    expect(names(routeCandidates(providers, alice, { catalog, health }))).toEqual(
      new Set(["alice-openai", "mock-openai", "ollama", "mock-anthropic"]),
    );
    expect(names(routeCandidates(providers, aliceStarter, { catalog, health }))).toEqual(
      new Set(["alice-openai", "mock-openai", "mock-anthropic"]),
    );
    expect(names(routeCandidates(providers, alice, { catalog, health }, { format: "messages" }))).toEqual(new Set(["mock-anthropic"]));
  }
});

test("one caller's record with a side (context.scope) gets that side's table, and without one its own again", async () => {
  const health = new ProviderHealth();
  const mine = providerRecord({ id: "p-mine", name: "alice-openai", ownerUserId: "u_alice", baseUrl: "http://127.0.0.1:8080/v1" });
  const providers = await live([openai, mine, local]);
  const names = (t: { providerName: string }[]) => new Set(t.map((c) => c.providerName));
  // The same user record, as the registry hands it on for one request that named a side.
  const alice = user("u_alice");
  for (let i = 0; i < 2; i++) {
    expect(names(routeCandidates(providers, alice, { catalog, health }))).toEqual(new Set(["alice-openai", "mock-openai", "ollama"]));
    expect(names(routeCandidates(providers, { ...alice, providerSide: "organization" }, { catalog, health }))).toEqual(
      new Set(["mock-openai", "ollama"]),
    );
    expect(names(routeCandidates(providers, { ...alice, providerSide: "user" }, { catalog, health }))).toEqual(new Set(["alice-openai"]));
  }
});

test("a declared model the catalog does not list is ranked at the price it is charged: its family's ceiling, not free", async () => {
  // A fine-tuned model on an OpenAI configuration: usage prices it at OpenAI's ceiling (catalog.price), so must the router.
  const tuned = providerRecord({ id: "p-tuned", name: "tuned", models: ["ft:gpt-4o-mini:acme::abc123"] });
  const table = routeCandidates(await live([tuned, local]), serviceAccount(null), { catalog, health: new ProviderHealth() });
  const ft = table.find((c) => c.model === "ft:gpt-4o-mini:acme::abc123")!;
  const charged = catalog.price(ft.model, "openai");
  expect(charged.inputPerMTok).toBeGreaterThan(0);
  expect([ft.inputPerMTok, ft.outputPerMTok]).toEqual([charged.inputPerMTok, charged.outputPerMTok]);
  // So the cost strategy does not send it first as if it cost nothing: every listed OpenAI model is cheaper or equal.
  const ranked = decide(
    table.filter((c) => c.providerName === "tuned"),
    { tools: false, vision: false, json: false, promptTokens: 100, maxTokens: 100 },
    "cost",
  );
  expect(ranked.ok && ranked.ranked.at(-1)!.candidate.model).toBe("ft:gpt-4o-mini:acme::abc123");
  // A self-hosted configuration's own models still cost nothing (the operator runs them), as usage charges them.
  expect(table.find((c) => c.model === "llama3.1:8b")).toMatchObject({ inputPerMTok: 0, outputPerMTok: 0 });
  expect(catalog.price("llama3.1:8b", "self-hosted").inputPerMTok).toBe(0);
});
