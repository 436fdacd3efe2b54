import { afterAll, beforeAll, expect, test } from "bun:test";
import { setEgressPolicy } from "../../src/lib/egress/egress-policy.ts";
import { ClientCredentialsToken, MAX_TOKEN_ANSWER_BYTES, TokenRefused } from "../../src/mcp/oauth-token.ts";
import { Upstream } from "../../src/mcp/upstream.ts";
import { startNotesMcpServer } from "../support/hostile-mcp-server.ts";

const asked: URLSearchParams[] = [];
let issued = 0;
let http: ReturnType<typeof Bun.serve>;
let url: string;

beforeAll(() => {
  // The token endpoint is on loopback: the operator setting the gateway's own tests use.
  setEgressPolicy({ allowPrivate: true });
  http = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    // The stalling endpoints below hold their requests open: the gateway's deadline ends them, not the server's.
    idleTimeout: 0,
    async fetch(request) {
      const form = new URLSearchParams(await request.text());
      asked.push(form);
      // An endpoint that never answers, and one that answers a byte and then nothing (each byte would restart an idle timer).
      if (request.url.endsWith("/silent")) return new Promise<Response>(() => {});
      if (request.url.endsWith("/trickle"))
        return new Response(new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(new TextEncoder().encode("{")) }), {
          headers: { "content-type": "application/json" },
        });
      // A valid token answer padded past what the gateway reads: announced, or streamed without a length.
      const padded = `{"access_token":"padded","pad":"${"x".repeat(65536)}"}`;
      if (request.url.endsWith("/padded")) return new Response(padded, { headers: { "content-type": "application/json" } });
      if (request.url.endsWith("/padded-stream")) {
        const bytes = new TextEncoder().encode(padded);
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            for (let at = 0; at < bytes.byteLength; at += 4096) controller.enqueue(bytes.slice(at, at + 4096));
            controller.close();
          },
        });
        return new Response(body, { headers: { "content-type": "application/json" } });
      }
      if (request.url.endsWith("/instant")) return Response.json({ access_token: `instant-token-${asked.length}`, expires_in: 0.001 });
      if (request.url.endsWith("/short")) return Response.json({ access_token: `short-${asked.length}`, expires_in: 20 });
      if (form.get("client_secret") !== "right-secret") return new Response(`bad secret ${form.get("client_secret")}`, { status: 401 });
      issued += 1;
      return Response.json({ access_token: `token-${issued}`, token_type: "Bearer", expires_in: 120 });
    },
  });
  url = `http://127.0.0.1:${http.port}/token`;
});

afterAll(async () => {
  await http.stop(true);
  setEgressPolicy({ allowPrivate: false });
});

test("a token is asked for with the client credentials grant, kept, and renewed shortly before it expires", async () => {
  const clock = { now: 1_000_000 };
  const token = new ClientCredentialsToken(
    { tokenUrl: url, clientId: "gw", clientSecret: "right-secret", scope: "tools" },
    () => clock.now,
  );
  const [a, b] = await Promise.all([token.get(), token.get()]);
  expect([a, b]).toEqual(["token-1", "token-1"]);
  expect(asked.at(-1)?.toString()).toBe("grant_type=client_credentials&client_id=gw&client_secret=right-secret&scope=tools");
  clock.now += 60_000;
  expect(await token.get()).toBe("token-1");
  // 120 s lifetime, renewed 30 s early.
  clock.now += 31_000;
  expect(await token.get()).toBe("token-2");
});

test("a refusal says the status only, never the endpoint's body (which may echo the secret)", async () => {
  const token = new ClientCredentialsToken({ tokenUrl: url, clientId: "gw", clientSecret: "wrong-secret", scope: null });
  const err = (await token.get().catch((e: Error) => e)) as Error;
  expect(err).toBeInstanceOf(TokenRefused);
  expect(err.message).toBe("the token endpoint answered 401");
});

test("an answer larger than a token answer may be is refused, announced or streamed, whatever it holds", async () => {
  for (const path of ["/padded", "/padded-stream"]) {
    const token = new ClientCredentialsToken({
      tokenUrl: url.replace("/token", path),
      clientId: "gw",
      clientSecret: "right-secret",
      scope: null,
    });
    const err = (await token.get().catch((e: Error) => e)) as Error;
    expect(err).toBeInstanceOf(TokenRefused);
    expect(err.message).toBe(`the token endpoint's answer is over ${MAX_TOKEN_ANSWER_BYTES} bytes`);
  }
});

test("an endpoint that does not answer, or answers without end, is given up on at the deadline, and the next request asks again", async () => {
  for (const path of ["/silent", "/trickle"]) {
    const token = new ClientCredentialsToken(
      { tokenUrl: url.replace("/token", path), clientId: "gw", clientSecret: "right-secret", scope: null },
      Date.now,
      200,
    );
    const err = (await token.get().catch((e: Error) => e)) as Error;
    expect(err).toBeInstanceOf(TokenRefused);
    expect(err.message).toBe("the token endpoint did not answer within 200 ms");
    // Not the same pending request for ever: a second get asks the endpoint again.
    const before = asked.length;
    await token.get().catch(() => {});
    expect(asked.length).toBe(before + 1);
  }
});

test("a token that lives less than the early renewal is kept half its life, not asked for again at every request", async () => {
  const clock = { now: 1_000_000 };
  const token = new ClientCredentialsToken(
    { tokenUrl: url.replace("/token", "/short"), clientId: "gw", clientSecret: "right-secret", scope: null },
    () => clock.now,
  );
  const first = await token.get();
  clock.now += 9_000;
  expect(await token.get()).toBe(first);
  clock.now += 2_000;
  expect(await token.get()).not.toBe(first);
});

test("a connection cuts the tokens it sent from a server's messages, keeping the last few, not every one it was ever given", async () => {
  const notes = startNotesMcpServer();
  const tokenUrl = url.replace("/token", "/instant");
  const now = Date.now();
  const server = { id: "mcp_1", orgId: "org_1", name: "notes", url: notes.url, country: null, auth: { type: "none" as const } };
  const upstream = new Upstream(
    { ...server, secretCiphertext: null, scan: {}, createdAt: now, updatedAt: now },
    { type: "oauth", tokenUrl, clientId: "gw", clientSecret: "right-secret", scope: null },
    () => {},
    1024 * 1024,
  );
  try {
    await upstream.ready;
    // Each request asks for a token (the endpoint says it lives a millisecond): a new one to cut each time.
    for (let n = 0; n < 20; n++) await upstream.client.listResources();
    const latest = `instant-token-${asked.length}`;
    expect(upstream.withoutCredentials(`echo ${latest} right-secret`)).toBe("echo [credential] [credential]");
    // The client secret and a couple of tokens, not 20.
    expect((upstream as unknown as { secrets: string[] }).secrets.length).toBeLessThanOrEqual(4);
  } finally {
    await upstream.close();
    await notes.stop();
  }
});
