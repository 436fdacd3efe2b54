/**
 * Hostile input at the edge. The probes that found the holes: model and provider
 * names with characters outside Latin-1 or control characters (a lone surrogate, NUL,
 * U+202E, an emoji, U+200B, CRLF) made a 500 when echoed in `x-gw-provider`, after the
 * provider had answered and the call was billed; JSON nested 100,000 deep made a 500;
 * a provider key with CR/LF was stored and then failed as "could not connect";
 * `ai.cost` with `prompt_tokens: 1e308` answered `totalCostUsd: null`; `temperature: 5`
 * answered "Expected union value".
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startMockProvider } from "../../src/mock-provider/server.ts";
import { type Harness, startHarness } from "./harness.ts";

let h: Harness;
let mock: ReturnType<typeof startMockProvider>;
let mockUrl: string;

const seen = async () => (await (await fetch(`${mockUrl}/_mock/requests`)).json()) as { authorization: string | null; body: any }[];
const post = (path: string, body: string, headers: Record<string, string> = h.admin.headers) =>
  h.fetch(path, { method: "POST", headers: { "content-type": "application/json", "anthropic-version": "2023-06-01", ...headers }, body });

beforeAll(async () => {
  h = await startHarness();
  mock = startMockProvider({ host: "127.0.0.1", port: 0, latencyMs: 0 });
  mockUrl = `http://127.0.0.1:${mock.port}`;
  expect(
    (await h.op(h.admin, "provider.create", { provider: "openai", apiKey: "sk-hostile-input-0000", baseUrl: `${mockUrl}/v1` })).status,
  ).toBe(200);
  expect(
    (await h.op(h.admin, "provider.create", { provider: "anthropic", apiKey: "sk-ant-hostile-input-0000", baseUrl: mockUrl })).status,
  ).toBe(200);
});

afterAll(async () => {
  mock.stop(true);
  await h.close();
});

const BAD_NAMES: [string, string][] = [
  ["a lone surrogate", "gpt-4o\ud800"],
  ["NUL", "gpt-4o\u0000"],
  ["a right-to-left override", "gpt-\u202e4o"],
  ["an emoji", "gpt-4o-\u{1f600}"],
  ["a zero-width space", "gpt\u200b-4o"],
  ["CRLF", "gpt-4o\r\nx-injected: 1"],
];

describe("model names are checked before any provider is called", () => {
  for (const [what, model] of BAD_NAMES) {
    test(`${what}: 400 naming the field on every surface, nothing sent`, async () => {
      const before = (await seen()).length;
      const chat = await post("/v1/chat/completions", JSON.stringify({ model, messages: [{ role: "user", content: "hi" }] }));
      expect(chat.status).toBe(400);
      expect(((await chat.json()) as any).error.param).toBe("model");
      const messages = await post("/v1/messages", JSON.stringify({ model, max_tokens: 5, messages: [{ role: "user", content: "hi" }] }));
      expect(messages.status).toBe(400);
      expect(((await messages.json()) as any).error.message).toContain("model");
      const embeddings = await post("/v1/embeddings", JSON.stringify({ model, input: "hi" }));
      expect(embeddings.status).toBe(400);
      const proxy = await h.op(h.admin, "ai.proxy", { provider: "openai", model, messages: [{ role: "user", content: "hi" }] });
      expect(proxy.status).toBe(400);
      expect((await seen()).length).toBe(before);
    });
  }
});

describe("provider names and declared models are checked at provider.create", () => {
  for (const [what, name] of BAD_NAMES) {
    test(what, async () => {
      const r = await h.op(h.admin, "provider.create", { provider: "groq", apiKey: "gsk_name_check_0000", name });
      expect(r.status).toBe(400);
      expect(r.body.error).toContain("params.name");
      const m = await h.op(h.admin, "provider.create", {
        provider: "custom",
        name: "declares",
        apiKey: "k-1234567890",
        baseUrl: `${mockUrl}/v1`,
        country: "US",
        models: [name],
      });
      expect(m.status).toBe(400);
      expect(m.body.error).toContain("params.models");
    });
  }

  test("a name stored before the rule existed is percent-encoded in the header, never a 500", async () => {
    const created = await h.op(h.admin, "provider.create", {
      provider: "custom",
      name: "legacy",
      apiKey: "k-1234567890",
      baseUrl: `${mockUrl}/v1`,
      country: "US",
      models: ["legacy-model"],
    });
    const rec = (await h.rt.store.getProviderConfig(created.body.data.provider.id))!;
    await h.rt.store.updateProviderConfig({ ...rec, name: "l\u00e9gacy\u202e\r\n" });
    h.rt.services.onProvidersChanged(rec.orgId);
    const res = await post("/v1/chat/completions", JSON.stringify({ model: "legacy-model", messages: [{ role: "user", content: "hi" }] }));
    expect(res.status).toBe(200);
    expect(res.headers.get("x-gw-provider")).toBe(encodeURIComponent("l\u00e9gacy\u202e\r\n/legacy-model"));
  });
});

describe("nesting depth", () => {
  const deep = (depth: number) =>
    `{"model":"gpt-4o","messages":[{"role":"user","content":"hi"}],"metadata":${"[".repeat(depth)}${"]".repeat(depth)}}`;

  test("JSON nested 100,000 deep is a 400 on every JSON surface", async () => {
    for (const path of ["/v1/chat/completions", "/v1/messages", "/v1/embeddings"]) {
      const res = await post(path, deep(100_000));
      expect(res.status).toBe(400);
      expect(JSON.stringify(await res.json())).toContain("nested deeper than");
    }
    const gw = await post("/api/v1/gateway", `{"operation":"user.me","params":${deep(100_000)}}`);
    expect(gw.status).toBe(400);
  });

  test("brackets inside strings do not count; ordinary depth passes", async () => {
    const res = await post(
      "/v1/chat/completions",
      JSON.stringify({ model: "gpt-4o", messages: [{ role: "user", content: "[".repeat(5000) }] }),
    );
    expect(res.status).toBe(200);
  });
});

describe("provider keys and quotes", () => {
  for (const [field, params] of [
    ["apiKey", { provider: "openai", apiKey: "sk-abc\r\nx-evil: 1" }],
    ["apiKey", { provider: "openai", apiKey: "sk-abc\u0000def" }],
    [
      "secretAccessKey",
      { provider: "bedrock", region: "us-east-1", accessKeyId: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalr\nXUtnFEMI" },
    ],
  ] as const) {
    test(`${field} with control characters is refused at provider.create`, async () => {
      const r = await h.op(h.admin, "provider.create", { ...params, name: `ctl-${field}` });
      expect(r.status).toBe(400);
      expect(r.body.error).toContain(`params.${field}`);
      expect(JSON.stringify(r.body)).not.toContain("sk-abc");
    });
  }

  test("ai.cost inputs are bounded, so a quote is always a number", async () => {
    const huge = await h.op(h.admin, "ai.cost", { model: "gpt-4o", prompt_tokens: 1e308, completion_tokens: 1 });
    expect(huge.status).toBe(400);
    expect(huge.body.error).toContain("params.prompt_tokens");
    const ok = await h.op(h.admin, "ai.cost", { model: "gpt-4o", prompt_tokens: 1_000_000_000, completion_tokens: 1_000_000_000 });
    expect(ok.status).toBe(200);
    expect(Number.isFinite(ok.body.data.totalCostUsd)).toBe(true);
  });

  test("a range error names the field and its range in words", async () => {
    const res = await post(
      "/v1/chat/completions",
      JSON.stringify({ model: "gpt-4o", temperature: 5, messages: [{ role: "user", content: "hi" }] }),
    );
    expect(res.status).toBe(400);
    const body = (await res.json()) as any;
    expect(body.error.param).toBe("temperature");
    expect(body.error.message).toBe("temperature must be a number from 0 to 2");
  });

  test("a self-hosted provider may have no key: none is sent", async () => {
    const r = await h.op(h.admin, "provider.create", {
      provider: "self-hosted",
      name: "ollama",
      baseUrl: `${mockUrl}/v1`,
      country: "US",
      models: ["llama-local"],
    });
    expect(r.status).toBe(200);
    expect(r.body.data.provider.keyHint).toBe("(no key)");
    const res = await post("/v1/chat/completions", JSON.stringify({ model: "llama-local", messages: [{ role: "user", content: "hi" }] }));
    expect(res.status).toBe(200);
    expect((await seen()).at(-1)?.authorization).toBeNull();
    // Other kinds still need one.
    expect(
      (await h.op(h.admin, "provider.create", { provider: "custom", name: "keyless", baseUrl: `${mockUrl}/v1`, country: "US" })).status,
    ).toBe(400);
  });
});
