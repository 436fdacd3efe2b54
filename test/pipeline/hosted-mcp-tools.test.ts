/** Label-only Responses `mcp` tools pointed at the gateway's `/mcp` with a grant; what cannot be is a 400 naming the tool. */
import { describe, expect, test } from "bun:test";
import type { Identity } from "../../src/domain/identity.ts";
import { ApiError } from "../../src/lib/errors.ts";
import { SecretBox } from "../../src/lib/secret-box.ts";
import { type HostedToolDeps, namesConfiguredServer, pointAtGateway } from "../../src/pipeline/hosted-mcp-tools.ts";
import { ToolGrantTokens } from "../../src/services/tool-grant-tokens.ts";

const identity = { kind: "serviceAccount", key: { keyHash: "c".repeat(64) }, organization: { id: "org_1" } } as unknown as Identity;
const caller = { identity, requestId: "req-7" };
const grants = new ToolGrantTokens(new SecretBox(new Uint8Array(32).fill(3)), () => 0);
const deps = (publicUrl: string | null, known = ["wiki"]): HostedToolDeps => ({
  publicUrl,
  grants,
  servers: { find: async (_identity, name) => (known.includes(name) ? { id: `mcp_${name}`, name } : null) },
});

async function refusal(p: Promise<unknown>): Promise<ApiError> {
  const err = await p.catch((e) => e);
  expect(err).toBeInstanceOf(ApiError);
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

describe("pointAtGateway", () => {
  test("the tool gets <public URL>/mcp and a grant for that server and its allowed tools; the rest is untouched", async () => {
    const fn = { type: "function", name: "f" };
    const body = {
      model: "gpt-4o",
      input: "hi",
      tools: [fn, { type: "mcp", server_label: "wiki", allowed_tools: { tool_names: ["weather"] } }],
    };
    const out = await pointAtGateway(body, caller, deps("https://gw.example.com/"));
    expect(out.tools[0]).toBe(fn);
    const tool = out.tools[1] as unknown as { server_url: string; headers: { Authorization: string }; server_label: string };
    expect(tool.server_url).toBe("https://gw.example.com/mcp");
    expect(tool.server_label).toBe("wiki");
    const claims = grants.open(tool.headers.Authorization.replace("Bearer ", ""))!;
    expect(claims.grant).toMatchObject({ serverId: "mcp_wiki", server: "wiki", tools: ["weather"] });
    expect(claims.holder).toEqual({ kind: "key", keyHash: "c".repeat(64) });
    expect(claims.grant.callRequestId).toBe("req-7");
    // The caller's body is not changed: the rewrite is the call's own copy.
    expect((body.tools[1] as Record<string, unknown>).server_url).toBeUndefined();
  });

  test("a public URL with a path keeps it; http is taken on loopback only", async () => {
    const body = () => ({ tools: [{ type: "mcp", server_label: "wiki" }] });
    const url = async (publicUrl: string) =>
      ((await pointAtGateway(body(), caller, deps(publicUrl))).tools[0] as unknown as { server_url: string }).server_url;
    expect(await url("https://example.com/gateway")).toBe("https://example.com/gateway/mcp");
    expect(await url("http://127.0.0.1:8080")).toBe("http://127.0.0.1:8080/mcp");
    expect(await url("http://localhost:8080")).toBe("http://localhost:8080/mcp");
    const plain = await refusal(pointAtGateway(body(), caller, deps("http://gw.example.com")));
    expect(plain.status).toBe(400);
    expect(plain.message).toContain("plain http");
    const unset = await refusal(pointAtGateway(body(), caller, deps(null)));
    expect(unset.message).toContain("not set GW_PUBLIC_URL");
    expect(unset.param).toBe("tools[0].server_label");
  });

  test("an unknown server, or credentials given with the label, is a 400 naming the tool", async () => {
    const unknown = await refusal(
      pointAtGateway({ tools: [{ type: "mcp", server_label: "nowhere" }] }, caller, deps("https://gw.example.com")),
    );
    expect(unknown.status).toBe(400);
    expect(unknown.message).toContain('no tool server named "nowhere"');
    const creds = await refusal(
      pointAtGateway(
        { tools: [{ type: "mcp", server_label: "wiki", headers: { Authorization: "Bearer x" } }] },
        caller,
        deps("https://gw.example.com"),
      ),
    );
    expect(creds.message).toContain("leave out headers and authorization");
    const none = await refusal(pointAtGateway({ tools: [{ type: "mcp", server_label: "wiki" }] }, caller, undefined));
    expect(none.status).toBe(400);
  });
});
