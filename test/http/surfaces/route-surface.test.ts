/**
 * `POST /api/byok/route` and `ai.route` headers: the target that answered and whether
 * its cost is an estimate, as `/v1/chat/completions` tells them.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { BUILT_IN_MODELS } from "../../../src/providers/catalog/models.ts";
import { type Harness, startHarness } from "../../security/harness.ts";
import { catalogPerFile } from "../../support/catalog-file.ts";
import { mockPerFile } from "../../support/mock-per-file.ts";

const mock = mockPerFile();
// The mock answers in about the time the catalog expects of its fastest OpenAI model (400 ms),
// so which one "speed" picks was a coin toss: the catalog's models are made slow here, and
// the declared model, measured, is the fastest whatever the machine's load.
const catalog = catalogPerFile({
  models: BUILT_IN_MODELS.filter((m) => m.provider === "openai").map((m) => ({ id: m.id, latencyMs: 600_000 })),
});
let h: Harness;

beforeAll(async () => {
  h = await startHarness({ GW_CATALOG: catalog });
});

afterAll(() => h.close());

test("the route endpoint says who answered and that an unpriced model's cost is an estimate, as the chat endpoint does", async () => {
  // An OpenAI configuration's model newer than the catalog: priced at the family's ceiling, an estimate.
  const r = await h.op(h.member, "provider.create", {
    provider: "openai",
    name: "oa-new",
    apiKey: "sk-oa-new-000000",
    baseUrl: `${mock.url}/v1`,
    models: ["gpt-9-preview"],
  });
  expect(r.status).toBe(200);
  const id = r.body.data.provider.id;
  const send = (path: string, body: unknown) =>
    h.fetch(path, {
      method: "POST",
      headers: { ...h.member.headers, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  try {
    // Measured fast on this node (three answers), so speed routes to it.
    for (let i = 0; i < 3; i++) {
      const chat = await send("/v1/chat/completions", { model: "oa-new/gpt-9-preview", messages: [{ role: "user", content: "hi" }] });
      expect(chat.headers.get("x-gw-price")).toBe("estimated");
    }
    const res = await send("/api/byok/route", { strategy: "speed", messages: [{ role: "user", content: "hi" }] });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { selectedModel: string }).selectedModel).toBe("gpt-9-preview");
    expect(res.headers.get("x-gw-moe-routed")).toBe("oa-new/gpt-9-preview");
    expect(res.headers.get("x-gw-provider")).toBe("oa-new/gpt-9-preview");
    expect(res.headers.get("x-gw-price")).toBe("estimated");
    const op = await h.op(h.member, "ai.route", { strategy: "speed", messages: [{ role: "user", content: "hi" }] });
    expect(op.headers.get("x-gw-price")).toBe("estimated");
  } finally {
    await h.op(h.member, "provider.delete", { id });
  }
});
