/**
 * The MCP gateway's mandatory policy end to end: a poisoned test server's injection,
 * credential and personal data blocked, flagged or redacted per the organization's and
 * the server's policy; arguments scanned before they leave; every call audited and counted.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { POISON } from "../support/mcp-servers.ts";
import { type McpStack, startMcpStack, textOf } from "../support/mcp-stack.ts";

let stack: McpStack;

beforeAll(async () => {
  stack = await startMcpStack({ everything: false });
}, 60_000);

afterAll(async () => {
  await stack?.stop();
});

describe("the mandatory policy on results and arguments", () => {
  test("an injected result is blocked by default: a tool error that says why, without the text", async () => {
    const client = await stack.connect(stack.admin);
    const result = (await client.callTool({ name: "wiki__read_page", arguments: {} })) as { isError?: boolean; _meta?: any };
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("prompt-injection");
    expect(textOf(result)).toContain("wiki__read_page");
    expect(textOf(result)).not.toContain("system prompt");
    expect(result._meta["gateway/scan"].blocked).toBe(true);
    expect(result._meta["gateway/scan"].counts.injection).toBeGreaterThan(0);
  });

  test("a credential in a result is blocked by default", async () => {
    const client = await stack.connect(stack.admin);
    const result = (await client.callTool({ name: "wiki__get_config", arguments: {} })) as { isError?: boolean };
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("a credential");
    expect(textOf(result)).not.toContain(POISON.credential);
  });

  test("personal data in a result is redacted by default (the organization's piiAction)", async () => {
    const client = await stack.connect(stack.admin);
    const result = (await client.callTool({ name: "wiki__lookup_customer", arguments: {} })) as { _meta?: any };
    expect(textOf(result)).toBe("Customer: Jane Doe, e-mail [EMAIL_1].");
    expect(result._meta["gateway/scan"]).toMatchObject({ redacted: 1 });
  });

  test("with the server's policy set to flag and redact, the injection passes marked and the credential is replaced", async () => {
    const id = (await stack.gw.op(stack.admin, "mcp.server.list")).body.data.servers.find((s: any) => s.name === "wiki").id;
    const updated = await stack.gw.op(stack.admin, "mcp.server.update", {
      id,
      scan: { injection: "flag", secrets: "redact", pii: "flag" },
    });
    expect(updated.status).toBe(200);
    const client = await stack.connect(stack.admin);
    const page = (await client.callTool({ name: "wiki__read_page", arguments: {} })) as { isError?: boolean; _meta?: any };
    expect(page.isError).toBeUndefined();
    expect(textOf(page)).toContain(POISON.injection);
    expect(page._meta["gateway/scan"]).toMatchObject({ flagged: ["injection"] });
    const config = await client.callTool({ name: "wiki__get_config", arguments: {} });
    expect(textOf(config)).toBe("deploy token: [GITHUB_TOKEN_1]");
    const customer = (await client.callTool({ name: "wiki__lookup_customer", arguments: {} })) as { _meta?: any };
    expect(textOf(customer)).toContain(POISON.email);
    expect(customer._meta["gateway/scan"]).toMatchObject({ flagged: ["pii"] });
    await stack.gw.op(stack.admin, "mcp.server.update", { id, scan: {} });
  });

  test("the organization's own scan policy applies: with injection set to flag, the poisoned page passes marked", async () => {
    const set = (injection: "block" | "flag") => stack.gw.op(stack.admin, "user.preferences", { set: { security: { injection } } });
    expect((await set("flag")).status).toBe(200);
    try {
      const client = await stack.connect(stack.admin);
      const page = (await client.callTool({ name: "wiki__read_page", arguments: {} })) as { isError?: boolean; _meta?: any };
      expect(page.isError).toBeUndefined();
      expect(page._meta["gateway/scan"].flagged).toEqual(["injection"]);
    } finally {
      await set("block");
    }
  });

  test("arguments are scanned before they leave: a credential never reaches the server, personal data is redacted", async () => {
    const client = await stack.connect(stack.admin);
    const before = stack.poisoned.calls.length;
    const refused = (await client.callTool({ name: "wiki__echo", arguments: { message: `use ${POISON.credential}` } })) as {
      isError?: boolean;
    };
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain("arguments");
    expect(stack.poisoned.calls.length).toBe(before);
    await client.callTool({ name: "wiki__echo", arguments: { message: `mail ${POISON.email}` } });
    expect(stack.poisoned.calls.at(-1)).toEqual({ name: "echo", arguments: { message: "mail [EMAIL_1]" } });
  });

  test("a server's protocol error is relayed only when its message passes the scan", async () => {
    const client = await stack.connect(stack.admin);
    const err = (await client.callTool({ name: "wiki__fail_loudly", arguments: {} }).catch((e: Error) => e)) as Error;
    expect(err.message).toContain("The tool server wiki refused the call (code -32602).");
    expect(err.message).not.toContain("system prompt");
  });

  test("every call is audited with server, tool, key, size, findings and duration, never its text", async () => {
    const page = await stack.gw.op(stack.admin, "org.audit-log.list", { limit: 200 });
    const rows = (page.body.data.entries as any[]).filter((e) => e.action === "mcp.tool.call");
    const blocked = rows.find((r) => r.target === "wiki__read_page" && r.details.outcome === "blocked");
    expect(blocked.details).toMatchObject({ server: "wiki", tool: "read_page", resultScan: "blocked" });
    expect(blocked.details.findings.result.injection).toBeGreaterThan(0);
    expect(typeof blocked.details.keyId).toBe("string");
    expect(blocked.details.resultBytes).toBeGreaterThan(0);
    expect(typeof blocked.details.durationMs).toBe("number");
    const text = JSON.stringify(rows);
    expect(text).not.toContain(POISON.injection);
    expect(text).not.toContain(POISON.email);
    expect(text).not.toContain(POISON.credential);
  });

  test("tool calls are counted in /metrics with bounded labels", async () => {
    const text = await (await fetch(`${stack.gw.url}/metrics`)).text();
    expect(text).toMatch(/gateway_mcp_tool_calls_total\{outcome="ok"\} \d+/);
    expect(text).toMatch(/gateway_mcp_tool_calls_total\{outcome="blocked"\} \d+/);
    expect(text).toMatch(/gateway_mcp_scan_findings_total\{direction="result",category="injection"\} \d+/);
    expect(text).not.toContain("wiki__");
  });
});
