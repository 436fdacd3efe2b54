/**
 * The plan's fallback models from the organization's `fallbackModels` preference. The
 * probe that found the hole: a provider declaring the model `constructor` (or
 * `hasOwnProperty`, `__proto__`) made every call to it a 500, because the preference
 * was read as `fallbackModels[model]` and found Object.prototype's member, which is
 * not a list of models.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type Harness, startHarness } from "../security/harness.ts";
import { mockPerFile } from "../support/mock-per-file.ts";

const mock = mockPerFile();
let h: Harness;
const NAMES = ["constructor", "hasOwnProperty", "__proto__", "toString", "isPrototypeOf"];

beforeAll(async () => {
  h = await startHarness();
});

afterAll(() => h.close());

const chat = (model: string) =>
  h.fetch("/v1/chat/completions", {
    method: "POST",
    headers: { ...h.member.headers, "content-type": "application/json" },
    body: JSON.stringify({ model, messages: [{ role: "user", content: "hi" }] }),
  });

test("a declared model named like an Object.prototype member is called, with no fallbacks unless configured", async () => {
  const created = await h.op(h.member, "provider.create", {
    provider: "custom",
    name: "lab",
    apiKey: "sk-lab-key-000",
    baseUrl: `${mock.url}/v1`,
    country: "US",
    models: [...NAMES, "fail-503"],
  });
  expect(created.status).toBe(200);
  for (const model of NAMES) {
    const res = await chat(model);
    expect({ model, status: res.status }).toEqual({ model, status: 200 });
    expect(((await res.json()) as { model: string }).model).toBe(model);
  }
  expect(h.logLines.filter((l) => l.includes('"level":"error"'))).toEqual([]);
});

test("such a name is a key of fallbackModels like any other, and configured fallbacks still run", async () => {
  const fallbackModels = { constructor: ["lab/toString"], "fail-503": ["toString"] };
  const set = await h.op(h.admin, "user.preferences", { set: { fallbackModels } });
  expect(set.status).toBe(200);
  expect(set.body.data.fallbackModels).toEqual(fallbackModels);
  const res = await chat("fail-503");
  expect(res.status).toBe(200);
  expect(res.headers.get("x-gw-attempts")).toBe("2");
  expect(((await res.json()) as { model: string }).model).toBe("toString");
  expect((await chat("constructor")).status).toBe(200);
});
