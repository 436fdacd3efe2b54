/**
 * The egress policy against SSRF. The probes that found the holes: provider.create
 * accepted base URLs on loopback, private ranges and the metadata address in every
 * spelling, the answers and error text came back to the caller, /v1/models listed
 * what such an address returned, and open and closed ports could be told apart; then
 * `alertWebhookUrl` took the same addresses and the gateway posted signed alerts to a
 * loopback listener. Every outbound address is now checked: providers, webhooks, the
 * identity provider, MCP servers named in tools.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startMockProvider } from "../../src/mock-provider/server.ts";
import { PRIVATE_EGRESS_SETTING, pinToCheckedAddress, setEgressPolicy } from "../../src/lib/egress/egress-policy.ts";
import { type Harness, startHarness } from "./harness.ts";

let h: Harness;
let mock: ReturnType<typeof startMockProvider>;
let mockUrl: string;
/** A server that answers every request with a redirect to `redirectTarget`, which counts its hits. */
let redirector: ReturnType<typeof Bun.serve>;
let redirectTarget: ReturnType<typeof Bun.serve>;
let redirectHits = 0;
/** Stands in for an identity provider, a webhook receiver and an MCP server on loopback: it counts what reaches it. */
let listener: ReturnType<typeof Bun.serve>;
let listenerHits = 0;

const mockRequests = async () => ((await (await fetch(`${mockUrl}/_mock/requests`)).json()) as unknown[]).length;

beforeAll(async () => {
  listener = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => (listenerHits++, new Response("not here", { status: 404 })) });
  h = await startHarness({
    GW_ALLOW_PRIVATE_PROVIDERS: "0",
    GW_OIDC_ISSUER: `http://127.0.0.1:${listener.port}`,
    GW_OIDC_CLIENT_ID: "gateway",
    GW_OIDC_CLIENT_SECRET: "secret-of-the-gateway",
  });
  mock = startMockProvider({ host: "127.0.0.1", port: 0, latencyMs: 0 });
  mockUrl = `http://127.0.0.1:${mock.port}`;
  redirectTarget = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => (redirectHits++, Response.json({ choices: [] })) });
  redirector = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: () => Response.redirect(`http://127.0.0.1:${redirectTarget.port}/v1/chat/completions`, 307),
  });
});

afterAll(async () => {
  mock.stop(true);
  redirector.stop(true);
  redirectTarget.stop(true);
  listener.stop(true);
  await h.close();
});

const chat = (model: string) => h.chat(h.admin, model);

describe("provider.create refuses internal addresses early", () => {
  const spellings = [
    "127.0.0.1",
    "localhost",
    "[::1]",
    "0.0.0.0",
    "2130706433",
    "0x7f000001",
    "127.1",
    "[::ffff:127.0.0.1]",
    "10.0.0.1",
    "192.168.0.10",
    "169.254.169.254",
    "[fe80::1]",
    "metadata.google.internal",
  ];
  for (const host of spellings) {
    test(host, async () => {
      setEgressPolicy({ allowPrivate: false });
      const r = await h.op(h.admin, "provider.create", {
        provider: "custom",
        name: `p-${host.replace(/[^\w]/g, "")}`,
        apiKey: "k-1234567890",
        baseUrl: `http://${host}:8080/v1`,
        country: "US",
      });
      expect(r.status).toBe(400);
      expect(r.body.error).toContain("params.baseUrl");
    });
  }

  test("the refusal of a private address names the setting that allows it", async () => {
    setEgressPolicy({ allowPrivate: false });
    const r = await h.op(h.admin, "provider.create", {
      provider: "custom",
      name: "named-setting",
      apiKey: "k-1234567890",
      baseUrl: "http://127.0.0.1:11434/v1",
      country: "US",
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toContain(PRIVATE_EGRESS_SETTING);
  });

  test("with private providers allowed, link-local and metadata addresses are still refused", async () => {
    setEgressPolicy({ allowPrivate: true });
    for (const host of ["169.254.169.254", "[::ffff:169.254.169.254]", "metadata.google.internal", "0.0.0.0"]) {
      const r = await h.op(h.admin, "provider.create", {
        provider: "custom",
        name: "meta",
        apiKey: "k-1234567890",
        baseUrl: `http://${host}/v1`,
        country: "US",
      });
      expect(r.status).toBe(400);
    }
    expect(
      (
        await h.op(h.admin, "provider.create", {
          provider: "custom",
          name: "loopback-ok",
          apiKey: "k-1234567890",
          baseUrl: "http://127.0.0.1:9/v1",
          country: "US",
        })
      ).status,
    ).toBe(200);
    setEgressPolicy({ allowPrivate: false });
  });

  test("provider.update to an internal address is refused too", async () => {
    setEgressPolicy({ allowPrivate: false });
    const created = await h.op(h.admin, "provider.create", { provider: "openai", name: "vendor", apiKey: "sk-vendor-1234567890" });
    expect(created.status).toBe(200);
    const r = await h.op(h.admin, "provider.update", { id: created.body.data.provider.id, baseUrl: "http://[::ffff:127.0.0.1]:8080/v1" });
    expect(r.status).toBe(400);
    expect(r.body.error).toContain("params.baseUrl");
  });
});

describe("the call-time check", () => {
  test("a provider stored while private addresses were allowed is refused once they are not: nothing is sent, the error says only unreachable", async () => {
    setEgressPolicy({ allowPrivate: true });
    expect(
      (
        await h.op(h.admin, "provider.create", {
          provider: "custom",
          name: "inside",
          apiKey: "k-1234567890",
          baseUrl: `${mockUrl}/v1`,
          country: "US",
          models: ["inside-model"],
        })
      ).status,
    ).toBe(200);
    setEgressPolicy({ allowPrivate: false });
    const before = await mockRequests();
    const res = await chat("inside/inside-model");
    expect(res.status).toBe(503);
    expect(((await res.json()) as any).error.message).toBe("inside is unreachable.");
    const models = (await (await h.fetch("/v1/models", { headers: h.admin.headers })).json()) as { data: { id: string }[] };
    expect(models.data.map((m) => m.id)).not.toContain("mock-model"); // what the mock's own list would add
    expect(await mockRequests()).toBe(before);
  });

  test("a closed port and a refused address answer alike", async () => {
    setEgressPolicy({ allowPrivate: true });
    expect(
      (
        await h.op(h.admin, "provider.create", {
          provider: "custom",
          name: "closed",
          apiKey: "k-1234567890",
          baseUrl: "http://127.0.0.1:9/v1",
          country: "US",
          models: ["closed-model"],
        })
      ).status,
    ).toBe(200);
    const closed = (await (await chat("closed/closed-model")).json()) as any;
    setEgressPolicy({ allowPrivate: false });
    const refused = (await (await chat("closed/closed-model")).json()) as any;
    expect(closed.error).toEqual(refused.error);
    expect(closed.error.message).toBe("closed is unreachable.");
  });

  test("redirects are never followed", async () => {
    setEgressPolicy({ allowPrivate: true });
    expect(
      (
        await h.op(h.admin, "provider.create", {
          provider: "custom",
          name: "hop",
          apiKey: "k-1234567890",
          baseUrl: `http://127.0.0.1:${redirector.port}/v1`,
          country: "US",
          models: ["hop-model"],
        })
      ).status,
    ).toBe(200);
    const res = await chat("hop/hop-model");
    expect(res.status).toBe(502);
    expect(redirectHits).toBe(0);
    setEgressPolicy({ allowPrivate: false });
  });

  test("a name is resolved, checked, and the call connects to the checked address with the original Host", async () => {
    setEgressPolicy({ allowPrivate: false });
    await expect(pinToCheckedAddress(`http://localhost:${mock.port}/v1/models`)).rejects.toThrow();
    setEgressPolicy({ allowPrivate: true });
    const pinned = await pinToCheckedAddress(`http://localhost:${mock.port}/v1/models`);
    expect(new URL(pinned.url).hostname).toMatch(/^(127\.0\.0\.1|\[::1\])$/);
    expect(pinned.host).toBe(`localhost:${mock.port}`);
    const https = await pinToCheckedAddress("https://localhost/v1");
    expect(https.tls?.serverName).toBe("localhost");
    setEgressPolicy({ allowPrivate: false });
  });
});

describe("the alert webhook", () => {
  const hook = () => [
    `http://127.0.0.1:${listener.port}/hook`,
    `http://localhost:${listener.port}/hook`,
    `http://[::ffff:127.0.0.1]:${listener.port}/hook`,
    `http://0.0.0.0:${listener.port}/hook`,
    "http://169.254.169.254/latest/meta-data/",
    "http://metadata.google.internal/computeMetadata/v1/",
    "http://[fd00:ec2::254]/",
    "http://10.0.0.1/hook",
  ];

  test("internal addresses are refused when saved, naming the setting; nothing is posted", async () => {
    setEgressPolicy({ allowPrivate: false });
    const before = listenerHits;
    for (const url of hook()) {
      const r = await h.op(h.admin, "user.preferences", { set: { alertWebhookUrl: url } });
      expect(r.status).toBe(400);
      expect(r.body.error).toContain("params.set.alertWebhookUrl");
    }
    const loopback = await h.op(h.admin, "user.preferences", { set: { alertWebhookUrl: hook()[0] } });
    expect(loopback.body.error).toContain(PRIVATE_EGRESS_SETTING);
    expect((await h.op(h.admin, "user.preferences", {})).body.data.alertWebhookUrl).toBeNull();
    expect(listenerHits).toBe(before);
  });

  test("with private addresses allowed, loopback is saved; link-local, metadata and 0.0.0.0 are still refused", async () => {
    setEgressPolicy({ allowPrivate: true });
    expect((await h.op(h.admin, "user.preferences", { set: { alertWebhookUrl: hook()[0] } })).status).toBe(200);
    for (const url of hook().slice(3, 7))
      expect((await h.op(h.admin, "user.preferences", { set: { alertWebhookUrl: url } })).status).toBe(400);
    await h.op(h.admin, "user.preferences", { set: { alertWebhookUrl: null } });
    setEgressPolicy({ allowPrivate: false });
  });
});

describe("the identity provider", () => {
  test("an issuer on loopback is not contacted without the setting, and the page names it", async () => {
    setEgressPolicy({ allowPrivate: false });
    const before = listenerHits;
    const res = await h.fetch("/signup");
    expect(res.status).toBe(503);
    expect(await res.text()).toContain("GW_ALLOW_PRIVATE_EGRESS");
    expect(listenerHits).toBe(before);
  });

  test("with the setting, discovery goes out through the egress fetch (this listener is no identity provider)", async () => {
    setEgressPolicy({ allowPrivate: true });
    const before = listenerHits;
    const res = await h.fetch("/signup");
    expect(res.status).toBe(503);
    expect(listenerHits).toBeGreaterThan(before);
    setEgressPolicy({ allowPrivate: false });
  });
});

describe("MCP servers named in tools", () => {
  const respond = (serverUrl: string) =>
    h.fetch("/v1/responses", {
      method: "POST",
      headers: { "content-type": "application/json", ...h.sandboxAdminKey.headers },
      body: JSON.stringify({
        model: "gpt-4o-mini",
        input: "hi",
        tools: [{ type: "mcp", server_label: "tools", server_url: serverUrl, require_approval: "never" }],
      }),
    });

  test("a Responses mcp tool on a private or metadata address is refused, naming the field", async () => {
    setEgressPolicy({ allowPrivate: false });
    for (const url of [`http://127.0.0.1:${listener.port}/sse`, "http://169.254.169.254/", "http://metadata.google.internal/"]) {
      const res = await respond(url);
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: { message: string; param?: string } };
      expect(body.error.message).toContain("tools[0].server_url");
    }
    expect(((await (await respond("http://10.1.2.3/sse")).json()) as any).error.message).toContain(PRIVATE_EGRESS_SETTING);
    expect((await respond("https://8.8.8.8/sse")).status).toBe(200);
  });

  test("a tool server whose name does not resolve here is refused (the provider's resolver might know it)", async () => {
    setEgressPolicy({ allowPrivate: false });
    const res = await respond("https://tools.invalid/sse");
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.message).toContain("does not resolve");
  });

  test("a messages call's mcp_servers url is refused the same way", async () => {
    setEgressPolicy({ allowPrivate: true });
    const res = await h.fetch("/v1/messages", {
      method: "POST",
      headers: { "content-type": "application/json", "anthropic-version": "2023-06-01", ...h.sandboxAdminKey.headers },
      body: JSON.stringify({
        model: "claude-sonnet-4-5",
        max_tokens: 10,
        messages: [{ role: "user", content: "hi" }],
        mcp_servers: [{ type: "url", url: "http://169.254.169.254/sse", name: "meta" }],
      }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.message).toContain("mcp_servers[0].url");
    setEgressPolicy({ allowPrivate: false });
  });

  test("count_tokens takes mcp_servers too (the vendor's count connects to list their tools): refused the same way", async () => {
    setEgressPolicy({ allowPrivate: true });
    const count = (url: string) =>
      h.fetch("/v1/messages/count_tokens", {
        method: "POST",
        headers: { "content-type": "application/json", "anthropic-version": "2023-06-01", ...h.sandboxAdminKey.headers },
        body: JSON.stringify({
          model: "claude-sonnet-4-5",
          messages: [{ role: "user", content: "hi" }],
          mcp_servers: [{ type: "url", url, name: "tools" }],
        }),
      });
    const res = await count("http://169.254.169.254/sse");
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.message).toContain("mcp_servers[0].url");
    expect((await count("https://8.8.8.8/sse")).status).toBe(200);
    setEgressPolicy({ allowPrivate: false });
  });
});
