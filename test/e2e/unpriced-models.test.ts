/**
 * Issue 22: a model the catalog does not list is priced at its family's most expensive
 * listed model (`x-gw-price: estimated`, flagged on its usage row) so it cannot spend
 * past a cap; an operator prices it exactly with GW_CATALOG.
 */
import { expect, test } from "bun:test";
import OpenAI from "openai";
import { catalogPerFile } from "../support/catalog-file.ts";
import { OPENAI_AT_MOCK } from "../support/provider-configs.ts";
import { stackPerFile } from "../support/stack.ts";
import { withStore } from "../support/store-access.ts";

const catalogFile = catalogPerFile({ models: [{ id: "gpt-operator-priced", provider: "openai", inputPerMTok: 1, outputPerMTok: 2 }] });

/** The key's usage rows, read through the Store (so the test holds on any store). */
const rowsOf = async (keyId: string) =>
  (await withStore(stack.gw.dataDir, (store) => store.listUsageEvents(stack.org.orgId)))
    .filter((e) => e.keyId === keyId)
    .map((e) => ({ model: e.model, cost_micros: e.costMicros, price_estimated: e.priceEstimated ? 1 : 0 }));

async function rowsWritten(keyId: string, n: number) {
  for (;;) {
    const rows = await rowsOf(keyId);
    if (rows.length >= n) return rows;
    await Bun.sleep(25);
  }
}

const stack = stackPerFile({ env: { GW_FLUSH_INTERVAL_MS: "50", GW_CATALOG: catalogFile }, providers: [OPENAI_AT_MOCK] });

test("an unlisted model is charged at its family's ceiling, marked estimated, and refused once the cap is spent", async () => {
  const created = await stack.gw.op(stack.org.apiKey, "org.service-account.create", { serviceAccountName: "unlisted", spendCapCents: 1 });
  const { id, key } = created.body.data.apiKey;
  const client = new OpenAI({ baseURL: `${stack.gw.url}/v1`, apiKey: key, maxRetries: 0 });
  const call = () =>
    client.chat.completions
      .create({ model: "gpt-9-unreleased", max_tokens: 20, messages: [{ role: "user", content: "Say something new." }] })
      .withResponse();

  const first = await call();
  expect(first.response.headers.get("x-gw-price")).toBe("estimated");
  const [row] = await rowsWritten(id, 1);
  expect(row).toMatchObject({ model: "gpt-9-unreleased", price_estimated: 1 });
  expect(row?.cost_micros).toBeGreaterThan(0);

  let refused: any = null;
  for (let calls = 1; calls < 200 && !refused; calls++)
    refused = await call().then(
      () => null,
      (e) => e,
    );
  expect(refused?.status).toBe(429);
  expect(refused?.error?.code).toBe("spend_cap_exceeded");
  await Bun.sleep(200);
  expect((await rowsOf(id)).reduce((n, r) => n + r.cost_micros, 0)).toBeLessThanOrEqual(10_000);
});

test("a model priced with GW_CATALOG, and a listed one, are not estimated", async () => {
  const created = await stack.gw.op(stack.org.apiKey, "org.service-account.create", { serviceAccountName: "priced" });
  const { id, key } = created.body.data.apiKey;
  const client = new OpenAI({ baseURL: `${stack.gw.url}/v1`, apiKey: key, maxRetries: 0 });
  for (const model of ["gpt-operator-priced", "gpt-4o"]) {
    const { response } = await client.chat.completions.create({ model, messages: [{ role: "user", content: "x" }] }).withResponse();
    expect(response.headers.get("x-gw-price")).toBeNull();
  }
  const rows = await rowsWritten(id, 2);
  expect(rows.map((r) => r.price_estimated)).toEqual([0, 0]);
  expect(rows.every((r) => r.cost_micros > 0)).toBe(true);
});
