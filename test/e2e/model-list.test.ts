/**
 * GET /v1/models over HTTP: each provider's own list is fetched once and cached, an
 * unreachable provider still shows its catalog entries, and provider.update and
 * provider.delete take effect on the next list, not ten minutes later.
 */
import { expect, test } from "bun:test";
import { stackPerFile } from "../support/stack.ts";

const listed = async (): Promise<{ id: string; owned_by: string }[]> => {
  const res = await fetch(`${stack.gw.url}/v1/models`, { headers: { authorization: `Bearer ${stack.org.apiKey}` } });
  expect(res.status).toBe(200);
  return ((await res.json()) as any).data;
};
const idsOf = async (owner: string) => (await listed()).filter((m) => m.owned_by === owner).map((m) => m.id);
/** /v1/models fetches that reached the mock with this provider key. */
const fetchesWith = async (apiKey: string) =>
  (await stack.mock.requests()).filter((r) => r.method === "GET" && r.path === "/v1/models" && r.authorization === `Bearer ${apiKey}`)
    .length;

const stack = stackPerFile();

test("two lists, one fetch: the provider's own list is cached", async () => {
  const created = await stack.gw.op(stack.org.apiKey, "provider.create", {
    provider: "openai",
    apiKey: "sk-list-cache-1",
    baseUrl: `${stack.mock.url}/v1`,
    scope: "organization",
  });
  expect(created.status).toBe(200);
  const first = await idsOf("openai");
  const second = await idsOf("openai");
  // Only the provider's own list has it, and no catalog or vendor naming resolves it bare: it is listed as the configuration's.
  expect(first).toContain("openai/mock-model");
  expect(second).toEqual(first);
  expect(await fetchesWith("sk-list-cache-1")).toBe(1);
  expect((await stack.gw.op(stack.org.apiKey, "ai.models")).body.data.data.length).toBe((await listed()).length);
  expect(await fetchesWith("sk-list-cache-1")).toBe(1);
});

test("an unreachable provider still lists its catalog entries", async () => {
  const created = await stack.gw.op(stack.org.apiKey, "provider.create", {
    provider: "mistral",
    apiKey: "mistral-key-123456",
    baseUrl: "http://127.0.0.1:9/v1",
    scope: "organization",
  });
  expect(created.status).toBe(200);
  const mistral = await idsOf("mistral");
  expect(mistral).toContain("mistral-large-latest");
  expect(mistral).not.toContain("mistral/mock-model");
  expect(await idsOf("openai")).toContain("openai/mock-model"); // the others are unaffected
  // It failed on the refused connection, without waiting for the fetch's deadline.
  const failures = stack.gw.lines
    .map((l) => JSON.parse(l))
    .filter((l) => l.msg === "provider model list unavailable" && l.provider === "mistral");
  expect(failures).toHaveLength(1);
  expect(failures[0].error).toMatch(/unreachable|refused|connect/i);
  expect(failures[0].error).not.toMatch(/time|deadline/i);
});

test("provider.update with a new key or address: the next list is fetched again", async () => {
  const providers = (await stack.gw.op(stack.org.apiKey, "provider.list")).body.data.providers;
  const openai = providers.find((p: any) => p.provider === "openai");
  expect((await stack.gw.op(stack.org.apiKey, "provider.update", { id: openai.id, apiKey: "sk-list-cache-2" })).status).toBe(200);
  await idsOf("openai");
  expect(await fetchesWith("sk-list-cache-2")).toBe(1);

  // A provider whose address failed is asked again at once when the address is corrected,
  // not after the minute a failure is otherwise remembered.
  const lab = await stack.gw.op(stack.org.apiKey, "provider.create", {
    provider: "custom",
    name: "lab",
    apiKey: "lab-key-123456",
    baseUrl: "http://127.0.0.1:9/v1",
    country: "US",
    scope: "organization",
  });
  await listed();
  expect(await fetchesWith("lab-key-123456")).toBe(0);
  expect(
    (await stack.gw.op(stack.org.apiKey, "provider.update", { id: lab.body.data.provider.id, baseUrl: `${stack.mock.url}/v1` })).status,
  ).toBe(200);
  await listed();
  await listed();
  expect(await fetchesWith("lab-key-123456")).toBe(1);
});

test("provider.delete: its models leave the list; one created in its place fetches its own", async () => {
  const openai = (await stack.gw.op(stack.org.apiKey, "provider.list")).body.data.providers.find((p: any) => p.provider === "openai");
  expect((await stack.gw.op(stack.org.apiKey, "provider.delete", { id: openai.id })).status).toBe(200);
  const after = await listed();
  expect(after.filter((m) => m.owned_by === "openai")).toEqual([]);
  expect(after.map((m) => m.id)).not.toContain("gpt-4.1-nano"); // catalog-only: nobody else serves it
  // The lab's own list, fetched after its update, has mock-model, named as the lab's.
  expect(after.find((m) => m.id === "lab/mock-model")?.owned_by).toBe("lab");

  expect(
    (
      await stack.gw.op(stack.org.apiKey, "provider.create", {
        provider: "openai",
        apiKey: "sk-list-cache-3",
        baseUrl: `${stack.mock.url}/v1`,
        scope: "organization",
      })
    ).status,
  ).toBe(200);
  expect(await idsOf("openai")).toContain("gpt-4.1-nano");
  expect(await fetchesWith("sk-list-cache-3")).toBe(1);
});
