/** The provider.* operations: rules per kind, scopes and visibility, key rotation, and Azure's addressing. */
import { describe, expect, test } from "bun:test";
import OpenAI from "openai";
import { runCli } from "../support/gateway-process.ts";
import { stackPerFile } from "../support/stack.ts";

const stack = stackPerFile();

describe("provider.create rules", () => {
  const cases: [string, object, number, string][] = [
    ["unknown kind", { provider: "acme", apiKey: "k" }, 400, "params.provider"],
    ["missing key", { provider: "openai" }, 400, "params.apiKey"],
    ["self-hosted without address", { provider: "self-hosted", apiKey: "k", country: "US" }, 400, "params.baseUrl"],
    ["self-hosted without country", { provider: "self-hosted", apiKey: "k", baseUrl: "http://127.0.0.1:1/v1" }, 400, "params.country"],
    ["a vendor's country is fixed", { provider: "openai", apiKey: "k", country: "DE" }, 400, "params.country"],
    [
      "address with credentials",
      { provider: "custom", apiKey: "k", country: "US", baseUrl: "http://u:p@127.0.0.1/v1" },
      400,
      "params.baseUrl",
    ],
    ["not an address", { provider: "custom", apiKey: "k", country: "US", baseUrl: "ftp://x" }, 400, "params.baseUrl"],
    ["bedrock without region", { provider: "bedrock", apiKey: "k" }, 400, "params.region"],
    [
      "bedrock half credentials",
      { provider: "bedrock", region: "us-east-1", accessKeyId: "AKIAIOSFODNN7EXAMPLE" },
      400,
      "params.secretAccessKey",
    ],
    ["region on a non-bedrock kind", { provider: "openai", apiKey: "k", region: "us-east-1" }, 400, "params.region"],
    ["format on a vendor kind", { provider: "openai", apiKey: "k", format: "messages" }, 400, "params.format"],
    ["unknown field", { provider: "openai", apiKey: "k", colour: "red" }, 400, "params"],
    ["a slash in the name", { provider: "openai", apiKey: "k", name: "a/b" }, 400, "params.name"],
  ];
  for (const [name, params, status, mention] of cases) {
    test(name, async () => {
      const r = await stack.gw.op(stack.org.apiKey, "provider.create", params);
      expect(r.status).toBe(status);
      expect(r.body.error).toContain(mention);
    });
  }

  test("bedrock with AWS credentials keeps the region; hints show only the access key's ends", async () => {
    const r = await stack.gw.op(stack.org.apiKey, "provider.create", {
      provider: "bedrock",
      region: "eu-central-1",
      accessKeyId: "AKIAIOSFODNN7EXAMPLE",
      secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
      scope: "organization",
    });
    expect(r.status).toBe(200);
    expect(r.body.data.provider).toMatchObject({
      provider: "bedrock",
      format: "bedrock",
      country: "US",
      settings: { region: "eu-central-1" },
      keyHint: "AKI...MPLE",
      scope: "organization",
    });
    expect(JSON.stringify(r.body)).not.toContain("wJalrXUtnFEMI");
  });

  test("names are unique in the organization", async () => {
    expect(
      (await stack.gw.op(stack.org.apiKey, "provider.create", { provider: "groq", apiKey: "gsk_1234567890abc", name: "fast" })).status,
    ).toBe(200);
    expect(
      (await stack.gw.op(stack.org.apiKey, "provider.create", { provider: "together", apiKey: "tg_1234567890abc", name: "fast" })).status,
    ).toBe(409);
  });
});

describe("scopes and visibility", () => {
  test("members add their own providers, not the organization's; they see organization ones and their own", async () => {
    // A real member (a service account acts for its creator, so it would see its creator's providers).
    expect((await stack.gw.op(stack.org.apiKey, "org.members.invite", { email: "member@example.com" })).status).toBe(200);
    const link = (
      await runCli(["login-link", "--data", stack.gw.dataDir, "--email", "member@example.com", "--public-url", stack.gw.url])
    ).stdout.trim();
    const cookie = ((await fetch(link, { redirect: "manual" })).headers.get("set-cookie") ?? "").split(";")[0] as string;
    const asMember = async (operation: string, params: object) => {
      const res = await fetch(`${stack.gw.url}/api/v1/gateway`, {
        method: "POST",
        headers: { cookie, origin: stack.gw.url, "content-type": "application/json" },
        body: JSON.stringify({ operation, params }),
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    expect((await asMember("provider.create", { provider: "mistral", apiKey: "m-1234567890", scope: "organization" })).status).toBe(403);
    const mine = await asMember("provider.create", { provider: "mistral", apiKey: "m-1234567890", name: "my-mistral" });
    expect(mine.status).toBe(200);
    expect(mine.body.data.provider.scope).toBe("user");
    const seen = (await asMember("provider.list", {})).body.data.providers.map((p: any) => p.name);
    expect(seen).toContain("my-mistral");
    expect(seen).toContain("bedrock"); // organization scope
    expect(seen).toContain("fast"); // added with the admin key: a key's providers are the organization's
    // The admin sees everything in the organization.
    expect((await stack.gw.op(stack.org.apiKey, "provider.list")).body.data.providers.map((p: any) => p.name)).toContain("my-mistral");
    // A member cannot change a provider that is not their own.
    const adminOwn = (await stack.gw.op(stack.org.apiKey, "provider.list")).body.data.providers.find((p: any) => p.name === "fast");
    expect((await asMember("provider.update", { id: adminOwn.id, name: "mine-now" })).status).toBe(403);
  });

  test("update rotates the key and changes settings; delete removes; others' providers are refused", async () => {
    const created = await stack.gw.op(stack.org.apiKey, "provider.create", { provider: "xai", apiKey: "xai-old-1234567890", name: "grok" });
    const id = created.body.data.provider.id;
    const updated = await stack.gw.op(stack.org.apiKey, "provider.update", {
      id,
      apiKey: "xai-new-0987654321",
      limits: { requestsPerMinute: 60 },
    });
    expect(updated.body.data.provider).toMatchObject({ keyHint: "xai-...4321", limits: { requestsPerMinute: 60 } });
    expect((await stack.gw.op(stack.org.apiKey, "provider.update", { id, provider: "openai" })).status).toBe(400);
    expect((await stack.gw.op(stack.org.apiKey, "provider.delete", { id })).body.data).toEqual({ id, deleted: true });
    expect((await stack.gw.op(stack.org.apiKey, "provider.delete", { id })).status).toBe(404);
    const audit = await stack.gw.op(stack.org.apiKey, "org.audit-log.list", { limit: 5 });
    const actions = audit.body.data.entries.map((e: any) => e.action);
    expect(actions).toContain("provider.delete");
    expect(actions).toContain("provider.update");
    expect(JSON.stringify(audit.body)).not.toContain("xai-new-0987654321");
  });
});

test("azure-openai: deployment paths, the api-key header and api-version", async () => {
  const r = await stack.gw.op(stack.org.apiKey, "provider.create", {
    provider: "azure-openai",
    name: "azure",
    apiKey: "azure-key-1234567890",
    baseUrl: stack.mock.url,
    apiVersion: "2024-06-01",
    deployments: { "gpt-4o": "prod-4o" },
    scope: "organization",
  });
  expect(r.status).toBe(200);
  const client = new OpenAI({ baseURL: `${stack.gw.url}/v1`, apiKey: stack.org.apiKey, maxRetries: 0 });
  const res = await client.chat.completions.create({ model: "azure/gpt-4o", messages: [{ role: "user", content: "hi" }] });
  expect(res.object).toBe("chat.completion");
  const seen = (await stack.mock.requests()).at(-1)!;
  expect(seen.path).toBe("/openai/deployments/prod-4o/chat/completions");
  expect(seen.url).toBe("/openai/deployments/prod-4o/chat/completions?api-version=2024-06-01");
  expect(seen.apiKey).toBe("azure-key-1234567890");
  expect(seen.headers["api-key"]).toBe("azure-key-1234567890");
  expect(seen.authorization).toBeNull();
  expect(seen.headers.authorization).toBeUndefined();
});
