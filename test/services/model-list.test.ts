/** The model list's cache of each provider's own list, against the project's mock provider: hits, failures, changes. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { ProviderConfigRecord } from "../../src/domain/types.ts";
import { createLogger } from "../../src/lib/log.ts";
import { configuredProviderVerdicts } from "../../src/policy/provider-authorization.ts";
import { Catalog } from "../../src/providers/catalog/catalog.ts";
import { setEgressPolicy } from "../../src/lib/egress/egress-policy.ts";
import { MAX_MODEL_LIST_BYTES, MAX_MODEL_LIST_PAGES, ModelList } from "../../src/services/model-list.ts";
import { MemoryProviderDirectory } from "../../src/state/provider-directory.ts";
import { resolveTarget } from "../../src/pipeline/resolve-provider.ts";
import { type RunningMock, startMockProvider } from "../support/gateway-process.ts";
import { ORG_ID, openPlain, providerRecord, serviceAccount } from "../policy/fixtures.ts";

const catalog = Catalog.builtIn();
const silent = createLogger("silent");
let mock: RunningMock;

beforeAll(async () => {
  // The mock is on loopback: allowed by the operator setting the gateway's own tests use.
  setEgressPolicy({ allowPrivate: true });
  mock = await startMockProvider();
});
afterAll(async () => {
  await mock.stop();
});

/** Model-list fetches the mock saw with this provider key. */
const fetchesWith = async (apiKey: string) =>
  (await mock.requests()).filter((r) => r.method === "GET" && r.path === "/v1/models" && r.authorization === `Bearer ${apiKey}`).length;

function setup(records: ProviderConfigRecord[], now: () => number = Date.now) {
  const directory = new MemoryProviderDirectory(
    async () => records.map((r) => ({ ...r })),
    openPlain,
    (kind, rec) => configuredProviderVerdicts(catalog, kind, rec),
  );
  const models = new ModelList(catalog, directory, silent, undefined, now);
  const ids = async () => (await models.list(serviceAccount("u"))).map((m) => m.id);
  return { directory, models, ids };
}

test("a provider's list is fetched once and served from memory for ten minutes", async () => {
  let now = 1_000_000;
  const { ids } = setup(
    [providerRecord({ id: "p1", apiKey: "sk-cache-hit", provider: "custom", country: "US", baseUrl: `${mock.url}/v1` })],
    () => now,
  );
  expect(await ids()).toContain("p1/mock-model");
  expect(await ids()).toContain("p1/mock-model");
  expect(await fetchesWith("sk-cache-hit")).toBe(1);
  now += 10 * 60_000 + 1;
  await ids();
  expect(await fetchesWith("sk-cache-hit")).toBe(2);
});

test("an unreachable provider still lists its catalog entries", async () => {
  const { ids } = setup([providerRecord({ id: "p2", provider: "mistral", baseUrl: "http://127.0.0.1:9/v1" })]);
  const listed = await ids();
  expect(listed).toContain("mistral-large-latest");
  expect(listed.length).toBe(catalog.modelsFor("mistral").length);
});

test("forget drops an organization's lists: the next call fetches again, with the current address and key", async () => {
  const records = [providerRecord({ id: "p3", apiKey: "sk-before", provider: "custom", country: "US", baseUrl: "http://127.0.0.1:9/v1" })];
  const { directory, models, ids } = setup(records);
  expect(await ids()).not.toContain("p3/mock-model"); // the failure is remembered for a minute...
  records[0] = { ...(records[0] as ProviderConfigRecord), baseUrl: `${mock.url}/v1`, secretCiphertext: "sk-after" };
  directory.evict(ORG_ID);
  models.forget(ORG_ID); // ...unless the provider changes
  expect(await ids()).toContain("p3/mock-model");
  expect(await fetchesWith("sk-after")).toBe(1);
});

test("a list fetched before the configuration's last update is not served, even if nobody called forget (another node changed it)", async () => {
  const records = [providerRecord({ id: "p4", apiKey: "sk-node-a", provider: "custom", country: "US", baseUrl: `${mock.url}/v1` })];
  const { directory, ids } = setup(records);
  await ids();
  records[0] = { ...(records[0] as ProviderConfigRecord), secretCiphertext: "sk-node-b", updatedAt: 2_000 };
  directory.evict(ORG_ID); // the directory's TTL ran out
  await ids();
  expect(await fetchesWith("sk-node-a")).toBe(1);
  expect(await fetchesWith("sk-node-b")).toBe(1);
});

test("a model list past MAX_MODEL_LIST_BYTES is refused where the bound is reached, not read whole", async () => {
  // The mock's oversized steer: a valid list, 64 MiB of it.
  const total = 64 * 1024 * 1024;
  const before = (await mock.stats()).oversizedBytes;
  const { directory, models } = setup([
    providerRecord({ id: "p5", provider: "custom", country: "US", baseUrl: `${mock.url}/fault-oversized-64/v1` }),
  ]);
  const [live] = await directory.get(ORG_ID);
  await expect(models.probe(live!)).rejects.toThrow(`the answer is over ${MAX_MODEL_LIST_BYTES} bytes`);
  // The rest was never asked for: well short of the 64 MiB the mock would have made.
  expect((await mock.stats()).oversizedBytes - before).toBeLessThan(total / 2);
});

test("every listed id, called as listed, reaches the configuration that lists it", async () => {
  // The mock's own list: gpt-4o, gpt-4o-mini, text-embedding-3-small and mock-model, which no catalog knows.
  const records = [
    providerRecord({ id: "p6", name: "oa", apiKey: "sk-oa-list", baseUrl: `${mock.url}/v1` }),
    providerRecord({ id: "p7", name: "lab", apiKey: "sk-lab-list", provider: "custom", country: "US", baseUrl: `${mock.url}/v1` }),
    providerRecord({ id: "p8", name: "oa2", apiKey: "sk-oa2-list", baseUrl: `${mock.url}/v1` }),
  ];
  const { directory, models } = setup(records);
  const who = serviceAccount("u");
  const listed = await models.list(who);
  const reached = listed.map((m) => {
    const target = resolveTarget({ catalog, directory }, who, m.id, new Headers());
    return [m.id, (target as { providerName: string }).providerName];
  });
  expect(reached).toEqual(listed.map((m) => [m.id, m.owned_by]));
  // The ids only a provider's own list has are named with their configuration: bare, they were a 404.
  const ids = listed.map((m) => m.id);
  expect(ids).toEqual(expect.arrayContaining(["oa/mock-model", "lab/mock-model", "oa2/mock-model", "gpt-4o"]));
  expect(ids).not.toContain("mock-model");
  // A model a bare name already reaches is listed once, as the union of the providers' lists.
  expect(ids.filter((id) => id.endsWith("gpt-4o"))).toEqual(["gpt-4o"]);
  // Alone, the custom provider's gpt-4o is the catalog's OpenAI model, which no configuration serves bare: named with it.
  const alone = setup([records[1]!]);
  const labOnly = (await alone.models.list(who)).map((m) => m.id);
  expect(labOnly).toEqual(expect.arrayContaining(["lab/gpt-4o", "lab/mock-model"]));
  expect(resolveTarget({ catalog, directory: alone.directory }, who, "lab/gpt-4o", new Headers())).toMatchObject({ providerName: "lab" });
});

/** The messages vendor's list pages the mock saw under this base path, as their `after_id` cursors. */
const pagesAt = async (base: string) =>
  (await mock.requests()).filter((r) => r.path === `${base}/v1/models`).map((r) => new URL(r.url, mock.url).searchParams.get("after_id"));

test("the messages vendor's list is read page after page (after_id) while it has more, up to a bound", async () => {
  // The mock's paging steer: 2,500 models, 1,000 a page at most, as the vendor pages them.
  const { ids } = setup([
    providerRecord({ id: "p9", name: "ant", provider: "anthropic", format: "messages", baseUrl: `${mock.url}/listing-2500` }),
  ]);
  const listed = (await ids()).filter((id) => id.startsWith("ant/listed-"));
  expect(listed).toHaveLength(2500);
  expect(listed).toContain("ant/listed-2500");
  expect(await pagesAt("/listing-2500")).toEqual([null, "listed-1000", "listed-2000"]);

  // A list longer than the bound is read to the bound, not without end.
  const many = setup([
    providerRecord({ id: "p10", name: "big", provider: "anthropic", format: "messages", baseUrl: `${mock.url}/listing-12000` }),
  ]);
  expect((await many.ids()).filter((id) => id.startsWith("big/listed-"))).toHaveLength(MAX_MODEL_LIST_PAGES * 1000);
  expect(await pagesAt("/listing-12000")).toHaveLength(MAX_MODEL_LIST_PAGES);
});
