/**
 * The calls planned without the router (embeddings, `count_tokens`) refuse a routed name
 * (`text-embedding-3*`, `gateway/auto`) with a 400 naming it, before any vendor is
 * reached; before, the name went to the vendor literally, which refused it.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type Harness, startHarness } from "../security/harness.ts";
import { mockPerFile } from "../support/mock-per-file.ts";

const mock = mockPerFile();
let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  for (const [provider, name] of [
    ["openai", "oa"],
    ["anthropic", "an"],
  ]) {
    const created = await h.op(h.admin, "provider.create", {
      provider,
      name,
      apiKey: "sk-test-1234567890",
      baseUrl: provider === "openai" ? `${mock.url}/v1` : mock.url,
      scope: "organization",
    });
    expect(created.status).toBe(200);
  }
});

afterAll(async () => {
  await h.close();
});

const sent = async () => ((await mock.requests()) as unknown[]).length;

const post = (path: string, body: unknown) =>
  h.fetch(path, { method: "POST", headers: { "content-type": "application/json", ...h.admin.headers }, body: JSON.stringify(body) });

for (const model of ["text-embedding-3*", "oa/text-embedding-3*", "gateway/auto"]) {
  test(`/v1/embeddings refuses the routed name ${model}, naming it, and reaches no vendor`, async () => {
    const before = await sent();
    const res = await post("/v1/embeddings", { model, input: "hello" });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { message: string; param: string | null } };
    expect(body.error.message).toContain(`"${model}" is routed, not a model`);
    expect(body.error.message).toContain("/v1/embeddings names one model");
    expect(body.error.param).toBe("model");
    expect(await sent()).toBe(before);
  });
}

test("count_tokens refuses a family, naming it, and reaches no vendor", async () => {
  const before = await sent();
  const res = await post("/v1/messages/count_tokens", { model: "claude-sonnet*", messages: [{ role: "user", content: "hi" }] });
  expect(res.status).toBe(400);
  const body = (await res.json()) as { type: string; error: { type: string; message: string } };
  expect(body.type).toBe("error");
  expect(body.error.message).toContain('"claude-sonnet*" is routed, not a model');
  expect(await sent()).toBe(before);
});

test("a named embeddings model is still served", async () => {
  const res = await post("/v1/embeddings", { model: "text-embedding-3-small", input: "hello" });
  expect(res.status).toBe(200);
});
