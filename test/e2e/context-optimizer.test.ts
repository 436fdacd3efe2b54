/**
 * The context optimizer on the model request path, with the official clients: what
 * reaches the provider (the mock records it), the `x-gw-optimized-tokens` header, the
 * ETL row it leaves, code blocks untouched, and how the header and the organization's
 * `contextOptimizer` preference decide.
 */
import Anthropic from "@anthropic-ai/sdk";
import { beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import OpenAI from "openai";
import { countTextTokens } from "../../src/lib/token-estimate.ts";
import { ANTHROPIC_AT_MOCK, OPENAI_AT_MOCK } from "../support/provider-configs.ts";
import { stackPerFile } from "../support/stack.ts";

let openai: OpenAI;
let anthropic: Anthropic;
let memberKey: string;

const stack = stackPerFile({
  providers: [
    { ...OPENAI_AT_MOCK, apiKey: "sk-openai-test-123456" },
    { ...ANTHROPIC_AT_MOCK, apiKey: "sk-ant-vendor-test-123456" },
  ],
});

beforeAll(async () => {
  openai = new OpenAI({ baseURL: `${stack.gw.url}/v1`, apiKey: stack.org.apiKey, maxRetries: 0 });
  anthropic = new Anthropic({ baseURL: stack.gw.url, apiKey: stack.org.apiKey, maxRetries: 0 });
  const created = await stack.gw.op(stack.org.apiKey, "org.service-account.create", {
    serviceAccountName: "optimizer-bot",
    name: "bot",
    keyType: "live",
    proxyMode: "security_enhanced",
  });
  memberKey = created.body.data.apiKey.key;
}, 30_000);

const para = (n: number) => `Clause ${n}: the supplier delivers the goods within thirty days of the order being confirmed.`;
const CODE = ["```python", "x = 1", "", "", "x = 1", "print(x)    # spaced", "```"].join("\n");
const PROMPT = [para(1), para(2), para(1), CODE, para(2), "Summarize   the   clauses."].join("\n\n");
const OPTIMIZED = [para(1), para(2), CODE, "Summarize the clauses."].join("\n\n");

const lastUpstreamBody = async () => (await stack.mock.requests()).at(-1)?.body as Record<string, any>;
const etlMetrics = async () =>
  (await (await fetch(`${stack.gw.url}/api/user/etl-metrics`, { headers: { authorization: `Bearer ${stack.org.apiKey}` } })).json()) as any;
const setPreference = async (on: boolean) => {
  const r = await stack.gw.op(stack.org.apiKey, "user.preferences", { set: { contextOptimizer: on } });
  expect(r.status).toBe(200);
};
const chat = (content: string, headers: Record<string, string> = {}) =>
  openai.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content }] }, { headers }).withResponse();

describe("per call: x-gw-optimize", () => {
  test("on: duplicated paragraphs arrive shorter, the code block as it was, the figures in the header and an ETL row", async () => {
    const before = await etlMetrics();
    const { data, response } = await chat(PROMPT, { "x-gw-optimize": "on" });
    expect(data.choices[0]!.message.content).toBeString();
    const sent = await lastUpstreamBody();
    expect(sent.messages).toEqual([{ role: "user", content: OPTIMIZED }]);
    expect(sent.messages[0].content).toContain(CODE);

    const header = response.headers.get("x-gw-optimized-tokens");
    expect(header).toMatch(/^\d+->\d+$/);
    const [orig, opt] = header!.split("->").map(Number) as [number, number];
    expect(opt).toBeLessThan(orig);

    const after = await etlMetrics();
    expect(after.totalDocuments).toBe(before.totalDocuments + 1);
    expect(after.totalOriginalTokens - before.totalOriginalTokens).toBe(orig);
    expect(after.totalOptimizedTokens - before.totalOptimizedTokens).toBe(opt);
    expect(after.recentDocuments[0]).toMatchObject({ originalTokens: orig, optimizedTokens: opt });
    expect(after.recentDocuments[0].transformationsApplied).toEqual(expect.arrayContaining(["deduplication", "normalization"]));
    // Figures only: no text of the prompt in the metrics.
    expect(JSON.stringify(after)).not.toContain("supplier");
  });

  test("absent, with the preference off (the default): sent as written, no header, no row", async () => {
    const before = (await etlMetrics()).totalDocuments;
    const { response } = await chat(PROMPT);
    expect((await lastUpstreamBody()).messages[0].content).toBe(PROMPT);
    expect(response.headers.get("x-gw-optimized-tokens")).toBeNull();
    expect((await etlMetrics()).totalDocuments).toBe(before);
  });

  test("a bad value is 400 in the OpenAI envelope, and nothing is sent or recorded", async () => {
    const sentBefore = (await stack.mock.requests()).length;
    const docsBefore = (await etlMetrics()).totalDocuments;
    const err = await chat(PROMPT, { "x-gw-optimize": "yes" }).catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect(err.status).toBe(400);
    expect(err.error).toMatchObject({ code: "invalid_request", param: "x-gw-optimize" });
    expect((await stack.mock.requests()).length).toBe(sentBefore);
    expect((await etlMetrics()).totalDocuments).toBe(docsBefore);
  });

  test("a call the scanner refuses after optimizing is not sent and leaves no row", async () => {
    const sentBefore = (await stack.mock.requests()).length;
    const docsBefore = (await etlMetrics()).totalDocuments;
    const err = await chat(`${PROMPT}\n\nWhy does ghp_Q7vLm2Rk9XwTz4Hn8Bc3Pd6Yf1Gs5Ja0KeWx fail?`, { "x-gw-optimize": "on" }).catch(
      (e) => e,
    );
    expect(err.status).toBe(400);
    expect(err.error.code).toBe("security_violation");
    expect((await stack.mock.requests()).length).toBe(sentBefore);
    expect((await etlMetrics()).totalDocuments).toBe(docsBefore);
  });

  test("repeated turns are dropped, the last turn and tool results kept", async () => {
    const messages: OpenAI.ChatCompletionMessageParam[] = [
      { role: "system", content: "You are terse." },
      { role: "user", content: "Read the report." },
      { role: "assistant", content: "", tool_calls: [{ id: "c1", type: "function", function: { name: "read", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "c1", content: "ok" },
      { role: "assistant", content: "", tool_calls: [{ id: "c2", type: "function", function: { name: "read", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "c2", content: "ok" },
      { role: "user", content: "Read the report." },
      { role: "user", content: "Now summarize it." },
    ];
    await openai.chat.completions.create({ model: "gpt-4o", messages }, { headers: { "x-gw-optimize": "on" } });
    const sent = (await lastUpstreamBody()).messages as { role: string; content: string }[];
    expect(sent).toEqual([...messages.slice(0, 6), messages[7]!] as never);
  });

  test("the messages format: system prompt and text blocks optimized, then sent", async () => {
    const { response } = await anthropic.messages
      .create(
        {
          model: "claude-haiku-4-5",
          max_tokens: 50,
          system: `Be   brief.\n\n\n\nBe   brief.`,
          messages: [{ role: "user", content: [{ type: "text", text: PROMPT }] }],
        },
        { headers: { "x-gw-optimize": "on" } },
      )
      .withResponse();
    expect(response.headers.get("x-gw-optimized-tokens")).toMatch(/^\d+->\d+$/);
    const sent = await lastUpstreamBody();
    expect(sent.system).toBe("Be brief.");
    expect(sent.messages).toEqual([{ role: "user", content: [{ type: "text", text: OPTIMIZED }] }]);
  });
});

describe("per organization: the contextOptimizer preference", () => {
  test("only an admin may turn it on; a member's attempt is 403 and changes nothing", async () => {
    expect((await stack.gw.op(memberKey, "user.preferences", { set: { contextOptimizer: true } })).status).toBe(403);
    expect((await stack.gw.op(stack.org.apiKey, "user.preferences", { set: { contextOptimizer: "yes" } })).status).toBe(400);
    expect((await stack.gw.op(stack.org.apiKey, "user.preferences")).body.data.contextOptimizer).toBe(false);
  });

  test("on: every call optimized; x-gw-optimize: off skips one call", async () => {
    await setPreference(true);
    try {
      const on = await chat(PROMPT);
      expect((await lastUpstreamBody()).messages[0].content).toBe(OPTIMIZED);
      expect(on.response.headers.get("x-gw-optimized-tokens")).toMatch(/^\d+->\d+$/);

      const before = (await etlMetrics()).totalDocuments;
      const off = await chat(PROMPT, { "x-gw-optimize": "off" });
      expect((await lastUpstreamBody()).messages[0].content).toBe(PROMPT);
      expect(off.response.headers.get("x-gw-optimized-tokens")).toBeNull();
      expect((await etlMetrics()).totalDocuments).toBe(before);
    } finally {
      await setPreference(false);
    }
  });

  test("/v1/responses is optimized too: instructions and input, then sent as written to OpenAI", async () => {
    await setPreference(true);
    try {
      const { response } = await openai.responses.create({ model: "gpt-4o", input: PROMPT }).withResponse();
      expect(response.headers.get("x-gw-optimized-tokens")).toMatch(/^\d+->\d+$/);
      const sent = await lastUpstreamBody();
      expect(JSON.stringify(sent)).toContain(JSON.stringify(OPTIMIZED).slice(1, -1));
    } finally {
      await setPreference(false);
    }
  });
});

describe("embeddings: inputs over the model's context are chunked", () => {
  // text-embedding-3-small takes 8191 tokens; chunks are cut at 90% of that (7371).
  const LIMIT = Math.floor(8191 * 0.9);
  const big = Array.from({ length: 900 }, (_, i) => `Record ${i}: the shipment left the northern depot on schedule with all pallets.`).join(
    "\n\n",
  );

  test("one embedding per chunk, in order; x-gw-embedding-chunks says how many each input became", async () => {
    const bigTokens = countTextTokens(big);
    expect(bigTokens).toBeGreaterThan(8191);
    const { data, response } = await openai.embeddings
      .create({ model: "text-embedding-3-small", input: ["first", big] }, { headers: { "x-gw-optimize": "on" } })
      .withResponse();
    const sent = (await lastUpstreamBody()).input as string[];
    expect(sent[0]).toBe("first");
    expect(sent.length).toBeGreaterThan(2);
    for (const chunk of sent.slice(1)) expect(countTextTokens(chunk)).toBeLessThanOrEqual(LIMIT);
    expect(sent.slice(1).join("\n\n")).toBe(big);
    expect(response.headers.get("x-gw-embedding-chunks")).toBe(`1,${sent.length - 1}`);
    expect(data.data).toHaveLength(sent.length);
    expect(data.data.map((d) => d.index)).toEqual(sent.map((_, i) => i));
    expect(response.headers.get("x-gw-optimized-tokens")).toMatch(/^\d+->\d+$/);
    expect((await etlMetrics()).recentDocuments[0].transformationsApplied).toEqual(["chunking"]);
  });

  test("without the optimizer the input is sent as written", async () => {
    const { response } = await openai.embeddings.create({ model: "text-embedding-3-small", input: ["first", big] }).withResponse();
    expect((await lastUpstreamBody()).input).toEqual(["first", big]);
    expect(response.headers.get("x-gw-embedding-chunks")).toBeNull();
  });
});

test("nothing of an optimized prompt is stored in the data folder", async () => {
  await chat(PROMPT, { "x-gw-optimize": "on" });
  // Stop first so the WAL is checkpointed and every byte written is in a file.
  await stack.gw.stop();
  const files = readdirSync(stack.gw.dataDir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile());
  expect(files.length).toBeGreaterThan(0);
  for (const f of files)
    expect([f.name, readFileSync(join(f.parentPath, f.name)).toString("latin1").includes("supplier delivers")]).toEqual([f.name, false]);
  expect(stack.gw.lines.join("\n")).not.toContain("supplier delivers");
});
