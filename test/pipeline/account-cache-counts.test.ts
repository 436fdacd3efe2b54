/**
 * The cache counts a usage row keeps are those its call was charged for: a provider's
 * counts larger than the prompt are cut to it as the catalog prices them (writes first),
 * so the cache's share of a prompt is never above all of it; a call that reported none
 * keeps 0. Recorded by the accountant into the gateway's own buffer and store.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Identity } from "../../src/domain/identity.ts";
import { Accountant, type CallResult } from "../../src/pipeline/account.ts";
import { Catalog } from "../../src/providers/catalog/catalog.ts";
import { type InProcessGateway, startInProcessGateway } from "../support/in-process-gateway.ts";

let gw: InProcessGateway;
let identity: Identity;
const catalog = Catalog.builtIn();

beforeAll(async () => {
  gw = await startInProcessGateway();
  const { organization, serviceAccount, apiKey } = gw.init;
  identity = { kind: "serviceAccount", id: serviceAccount.id, role: serviceAccount.role, organization, serviceAccount, key: apiKey };
});
afterAll(() => gw?.stop());

/** Records `r` as a call of its own and reads its row back from the store. */
async function rowOf(r: Omit<CallResult, "provider" | "model" | "status" | "errorCode">) {
  const requestId = crypto.randomUUID();
  new Accountant(catalog, gw.rt.usage, false).record(
    { identity, requestId, startedAt: Date.now() },
    { provider: "openai", model: "gpt-4o", status: 200, errorCode: null, ...r },
  );
  await gw.rt.usage.flush();
  const row = (await gw.rt.store.listUsageEvents(gw.init.organization.id)).find((e) => e.requestId === requestId);
  if (!row) throw new Error("the call left no usage row");
  return row;
}

const gpt4o = catalog.price("gpt-4o", "openai")!;

test("counts within the prompt are kept as reported", async () => {
  const row = await rowOf({ promptTokens: 1000, completionTokens: 10, cache: { read: 600, write: 300, writeLong: 0 } });
  expect([row.cacheReadTokens, row.cacheWriteTokens]).toEqual([600, 300]);
});

test("counts beyond the prompt are cut to it, writes first, and the row costs what its counts price at", async () => {
  const row = await rowOf({ promptTokens: 100, completionTokens: 10, cache: { read: 500, write: 30, writeLong: 0 } });
  expect([row.cacheReadTokens, row.cacheWriteTokens]).toEqual([70, 30]);
  const cache = { read: row.cacheReadTokens ?? 0, write: row.cacheWriteTokens ?? 0, writeLong: 0 };
  expect(row.costMicros).toBe(catalog.costMicros(gpt4o, 100, 10, cache));
  const allWrites = await rowOf({ promptTokens: 100, completionTokens: 10, cache: { read: 50, write: 400, writeLong: 0 } });
  expect([allWrites.cacheReadTokens, allWrites.cacheWriteTokens]).toEqual([0, 100]);
});

test("a call that reported no cache tokens keeps 0 of each", async () => {
  const row = await rowOf({ promptTokens: 100, completionTokens: 10 });
  expect([row.cacheReadTokens, row.cacheWriteTokens]).toEqual([0, 0]);
});
