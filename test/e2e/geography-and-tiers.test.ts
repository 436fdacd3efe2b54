/** Provider geography (United States, NATO, Major Non-NATO Allies) and tiers, at configuration and at call time. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import OpenAI from "openai";
import { isAuthorizedCountry } from "../../src/policy/geography.ts";
import { initOrg, removeDir, runCli, type RunningMock, startGateway, startMockProvider, tempDataDir } from "../support/gateway-process.ts";

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMockProvider();
});
afterAll(async () => {
  await mock.stop();
});

test("the country table", () => {
  for (const c of ["US", "GB", "DE", "TR", "PL", "SE", "FI", "CA", "JP", "KR", "AU", "IL", "TW", "KE", "CO", "QA", "SA", "us"])
    expect(isAuthorizedCountry(c)).toBe(true);
  for (const c of ["CN", "RU", "IR", "KP", "BY", "IN", "AE", "SG", "CH", "AT", "IE", "", null, undefined])
    expect(isAuthorizedCountry(c)).toBe(false);
});

describe("geography", () => {
  test("blocked providers are refused at provider.create, at call time, and left out of /v1/models", async () => {
    const dataDir = tempDataDir();
    const org = await initOrg(dataDir);
    let gw = await startGateway({ dataDir });
    const deepseek = await gw.op(org.apiKey, "provider.create", { provider: "deepseek", apiKey: "sk-deepseek-1234567890" });
    expect(deepseek.status).toBe(403);
    expect(deepseek.body.code).toBe("provider_blocked");
    const selfHosted = await gw.op(org.apiKey, "provider.create", {
      provider: "self-hosted",
      apiKey: "k-1234567890",
      baseUrl: `${mock.url}/v1`,
      country: "RU",
    });
    expect(selfHosted.body.code).toBe("provider_blocked");
    expect(
      (
        await gw.op(org.apiKey, "provider.create", {
          provider: "self-hosted",
          name: "lab",
          apiKey: "k-1234567890",
          baseUrl: `${mock.url}/v1`,
          country: "DE",
          models: ["mock-model"],
          scope: "organization",
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await gw.op(org.apiKey, "provider.create", {
          provider: "openai",
          apiKey: "sk-1234567890abcd",
          baseUrl: `${mock.url}/v1`,
          scope: "organization",
        })
      ).status,
    ).toBe(200);

    // A per-request key for a blocked vendor is refused before anything is sent.
    const before = (await mock.requests()).length;
    const perRequest = await fetch(`${gw.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${org.apiKey}`, "content-type": "application/json", "x-gw-provider-key": "sk-ds-123456789" },
      body: JSON.stringify({ model: "deepseek-chat", messages: [{ role: "user", content: "x" }] }),
    });
    expect(perRequest.status).toBe(403);
    expect(((await perRequest.json()) as any).error).toMatchObject({ code: "provider_blocked", type: "permission_error" });
    expect((await mock.requests()).length).toBe(before);
    await gw.stop();

    // Policy changes after configuration: the call-time check and the model list follow it.
    const catalog = join(dataDir, "catalog.json");
    writeFileSync(catalog, JSON.stringify({ providers: { openai: { country: "CN" } } }));
    gw = await startGateway({ dataDir, env: { GW_CATALOG: catalog } });
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: org.apiKey, maxRetries: 0 });
    const err = await client.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: "x" }] }).catch((e) => e);
    expect(err.status).toBe(403);
    expect(err.error.code).toBe("provider_blocked");
    const listed = (await client.models.list()).data;
    expect(listed.map((m) => m.id)).toContain("mock-model");
    // The self-hosted server lists gpt-4o itself; nothing may come from the now-blocked openai configuration.
    expect(listed.filter((m) => m.owned_by === "openai")).toEqual([]);
    expect(listed.map((m) => m.id)).not.toContain("gpt-4.1-nano");
    expect((await client.chat.completions.create({ model: "mock-model", messages: [{ role: "user", content: "x" }] })).object).toBe(
      "chat.completion",
    );
    await gw.stop();
    removeDir(dataDir);
  });
});

describe("tiers", () => {
  test("a starter organization: no own models, no cloud platforms, no audit log, five providers", async () => {
    const starterDir = tempDataDir();
    const init = await runCli(["init", "--data", starterDir, "--org", "Small", "--email", "s@example.com", "--tier", "starter", "--json"]);
    const starter = JSON.parse(init.stdout);
    const gw = await startGateway({ dataDir: starterDir });
    for (const params of [
      { provider: "self-hosted", apiKey: "k-1234567890", baseUrl: `${mock.url}/v1`, country: "US" },
      { provider: "bedrock", apiKey: "k-1234567890", region: "us-east-1" },
      { provider: "azure-openai", apiKey: "k-1234567890", baseUrl: mock.url },
    ]) {
      const r = await gw.op(starter.apiKey, "provider.create", params);
      expect(r.status).toBe(403);
      expect(r.body.code).toBe("tier_limit_exceeded");
      expect(r.body.error).toContain("professional");
    }
    const audit = await gw.op(starter.apiKey, "org.audit-log.list");
    expect(audit.status).toBe(403);
    expect(audit.body.code).toBe("tier_limit_exceeded");
    for (const [i, provider] of ["openai", "mistral", "groq", "together", "fireworks"].entries()) {
      expect((await gw.op(starter.apiKey, "provider.create", { provider, apiKey: `k-123456789${i}` })).status).toBe(200);
    }
    const sixth = await gw.op(starter.apiKey, "provider.create", { provider: "xai", apiKey: "k-1234567899" });
    expect(sixth.status).toBe(403);
    expect(sixth.body.code).toBe("tier_limit_exceeded");
    await gw.stop();
    removeDir(starterDir);
  });
});
