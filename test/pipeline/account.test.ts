/**
 * Accounting under GW_DURABILITY=strict when the store cannot take the event: the call
 * still answers (the provider was called and paid; an error would only make the caller
 * pay again), and its event waits in the write-behind buffer, to be written once, when
 * the store takes writes again. The store is made to fail for real: another connection
 * holds the database's write lock, so the flush ends with SQLITE_BUSY after its wait.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { type InProcessGateway, startInProcessGateway } from "../support/in-process-gateway.ts";
import { mockPerFile } from "../support/mock-per-file.ts";
import { atMock, OPENAI_AT_MOCK } from "../support/provider-configs.ts";

const mock = mockPerFile();
let gw: InProcessGateway;

beforeAll(async () => {
  gw = await startInProcessGateway({ env: { GW_DURABILITY: "strict" }, logLevel: "silent" });
  const created = await gw.op({ key: gw.init.keyValue }, "provider.create", atMock(OPENAI_AT_MOCK, mock.url));
  expect(created.status).toBe(200);
}, 60_000);

afterAll(async () => {
  await gw?.stop();
});

const chat = () =>
  gw.handle(
    new Request(`${gw.origin}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${gw.init.keyValue}` },
      body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "Hello there" }] }),
    }),
  );

test("strict durability: a call whose event the store cannot take yet still answers, and its event is written once the store is back", async () => {
  const orgId = gw.init.organization.id;
  expect((await chat()).status).toBe(200);
  const before = await gw.rt.store.countUsageEvents(orgId);
  expect(before).toBe(1);
  const holder = new Database(join(gw.rt.config.dataDir, "gateway.db"));
  holder.exec("BEGIN IMMEDIATE");
  let res: Response;
  try {
    res = await chat();
  } finally {
    holder.exec("ROLLBACK");
    holder.close();
  }
  expect(res.status).toBe(200);
  expect(((await res.json()) as { object: string }).object).toBe("chat.completion");
  expect(gw.rt.usage.stats()).toMatchObject({ pending: 1, failures: 1 });
  expect(await gw.rt.store.countUsageEvents(orgId)).toBe(before);
  await gw.rt.usage.flush();
  expect(await gw.rt.store.countUsageEvents(orgId)).toBe(before + 1);
  expect(gw.rt.usage.stats()).toMatchObject({ pending: 0, failures: 1 });
}, 30_000);
