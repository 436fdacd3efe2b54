/**
 * Label-only Responses `mcp` tools: resolved before the call is planned (a 400 naming the
 * tool when they cannot be), then each attempt's body pointed at the gateway's `/mcp`
 * with a grant for the caller and the call.
 */
import { describe, expect, test } from "bun:test";
import type { Identity } from "../../src/domain/identity.ts";
import { ApiError } from "../../src/lib/errors.ts";
import { SecretBox } from "../../src/lib/secret-box.ts";
import { type HostedToolDeps, namesConfiguredServer, pointAtGateway, resolveHostedTools } from "../../src/pipeline/hosted-mcp-tools.ts";
import { ToolGrantTokens } from "../../src/services/tool-grant-tokens.ts";

type Json = Record<string, unknown>;

const identity = { kind: "serviceAccount", key: { keyHash: "c".repeat(64) }, organization: { id: "org_1" } } as unknown as Identity;
const call = { identity, requestId: "req-7" };
const grants = new ToolGrantTokens(new SecretBox(new Uint8Array(32).fill(3)), () => 0);
const deps = (publicUrl: string | null, known = ["wiki"]): HostedToolDeps => ({
  publicUrl,
  grants,
  servers: { find: async (_identity, name) => (known.includes(name) ? { id: `mcp_${name}`, name } : null) },
});

/** Both steps, as a call makes them. */
async function rewritten(body: Json, publicUrl: string | null = "https://gw.example.com"): Promise<Json> {
  return pointAtGateway(body, await resolveHostedTools(body, identity, deps(publicUrl)), call);
}

async function refusal(p: Promise<unknown>): Promise<ApiError> {
  const err = await p.catch((e) => e);
  expect(err).toBeInstanceOf(ApiError);
  expect((err as ApiError).status).toBe(400);
  return err as ApiError;
}

describe("which tools are pointed at the gateway", () => {
  test("only an mcp tool with a label and neither server_url nor connector_id", () => {
    expect(namesConfiguredServer(undefined)).toBe(false);
    expect(namesConfiguredServer([{ type: "function", name: "f" }])).toBe(false);
    expect(namesConfiguredServer([{ type: "mcp", server_label: "x", server_url: "https://x.example/mcp" }])).toBe(false);
    expect(namesConfiguredServer([{ type: "mcp", server_label: "x", connector_id: "connector_gmail" }])).toBe(false);
    expect(
      namesConfiguredServer([
        { type: "function", name: "f" },
        { type: "mcp", server_label: "wiki" },
      ]),
    ).toBe(true);
  });
});

describe("pointing them at the gateway", () => {
  test("the tool gets <public URL>/mcp and a grant for the caller, the call, that server and its allowed tools; the rest is untouched", async () => {
    const fn = { type: "function", name: "f" };
    const body = {
      model: "gpt-4o",
      input: "hi",
      tools: [fn, { type: "mcp", server_label: "wiki", allowed_tools: { tool_names: ["weather"] } }],
    };
    const out = await rewritten(body, "https://gw.example.com/");
    const tools = out.tools as Json[];
    expect(tools[0]).toBe(fn);
    const tool = tools[1] as { server_url: string; headers: { Authorization: string }; server_label: string };
    expect(tool.server_url).toBe("https://gw.example.com/mcp");
    expect(tool.server_label).toBe("wiki");
    const claims = grants.open(tool.headers.Authorization.replace("Bearer ", ""))!;
    expect(claims.grant).toMatchObject({ serverId: "mcp_wiki", server: "wiki", tools: ["weather"], callRequestId: "req-7" });
    expect(claims.holder).toEqual({ kind: "key", keyHash: "c".repeat(64) });
    // The caller's body is not changed: each attempt gets its own copy.
    expect((body.tools[1] as Json).server_url).toBeUndefined();
  });

  test("each attempt gets a grant of its own", async () => {
    const body = { tools: [{ type: "mcp", server_label: "wiki" }] };
    const hosted = await resolveHostedTools(body, identity, deps("https://gw.example.com"));
    const grantOf = (b: Json) => ((b.tools as Json[])[0] as { headers: { Authorization: string } }).headers.Authorization;
    expect(grantOf(pointAtGateway(body, hosted, call))).not.toBe(grantOf(pointAtGateway(body, hosted, call)));
  });

  test("a public URL with a path keeps it; http is taken on loopback only", async () => {
    const body = () => ({ tools: [{ type: "mcp", server_label: "wiki" }] });
    const url = async (publicUrl: string) => ((await rewritten(body(), publicUrl)).tools as { server_url: string }[])[0]!.server_url;
    expect(await url("https://example.com/gateway")).toBe("https://example.com/gateway/mcp");
    expect(await url("http://127.0.0.1:8080")).toBe("http://127.0.0.1:8080/mcp");
    expect(await url("http://localhost:8080")).toBe("http://localhost:8080/mcp");
    expect((await refusal(rewritten(body(), "http://gw.example.com"))).message).toContain("plain http");
    const unset = await refusal(rewritten(body(), null));
    expect(unset.message).toContain("not set GW_PUBLIC_URL");
    expect(unset.param).toBe("tools[0].server_label");
  });

  test("an unknown server, or credentials given with the label, is a 400 naming the tool", async () => {
    const unknown = await refusal(rewritten({ tools: [{ type: "function" }, { type: "mcp", server_label: "nowhere" }] }));
    expect(unknown.message).toContain('no tool server named "nowhere"');
    expect(unknown.param).toBe("tools[1].server_label");
    const creds = await refusal(rewritten({ tools: [{ type: "mcp", server_label: "wiki", headers: { Authorization: "Bearer x" } }] }));
    expect(creds.message).toContain("leave out headers and authorization");
    await refusal(resolveHostedTools({ tools: [{ type: "mcp", server_label: "wiki" }] }, identity, undefined));
  });
});
