/**
 * What a messages-format answer's web searches are charged: the count its usage reports
 * (`server_tool_use.web_search_requests`), but never more than the request's own web
 * search tools allow (`max_uses`; none without such a tool, as a chat call translated to
 * the messages format has). A provider reporting 10^11 searches made the caller's row
 * $1 billion. The provider here is a small server of the test's own: the mock answers as
 * the vendor does, and the vendor never counts past `max_uses`; this one reports whatever
 * searches its model's name says, whole and streamed.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { WEB_SEARCH_FEE_MICROS } from "../../src/providers/anthropic/messages-wire.ts";
import { type InProcessGateway, startInProcessGateway } from "../support/in-process-gateway.ts";

/** Searches a provider reports: $1 billion at the vendor's price. */
const HUGE = 100_000_000_000;
let provider: ReturnType<typeof Bun.serve>;
let gw: InProcessGateway;

const usageOf = (model: string) => ({
  input_tokens: 12,
  output_tokens: 3,
  server_tool_use: { web_search_requests: Number(model.split("-")[1]) },
});

function answer(model: string, stream: boolean): Response {
  const message = { id: "msg_1", type: "message", role: "assistant", model, content: [{ type: "text", text: "Found it." }] };
  if (!stream) return Response.json({ ...message, stop_reason: "end_turn", stop_sequence: null, usage: usageOf(model) });
  const events: [string, unknown][] = [
    ["message_start", { type: "message_start", message: { ...message, content: [], usage: { input_tokens: 12, output_tokens: 0 } } }],
    ["content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }],
    ["content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Found it." } }],
    ["content_block_stop", { type: "content_block_stop", index: 0 }],
    ["message_delta", { type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: usageOf(model) }],
    ["message_stop", { type: "message_stop" }],
  ];
  const text = events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join("");
  return new Response(text, { headers: { "content-type": "text/event-stream" } });
}

beforeAll(async () => {
  provider = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const body = (await req.json()) as { model: string; stream?: boolean };
      return answer(body.model, body.stream === true);
    },
  });
  gw = await startInProcessGateway({ logLevel: "error" });
  const searcher = {
    provider: "custom",
    name: "searcher",
    format: "messages",
    apiKey: "k-searcher-1234567890",
    baseUrl: `http://127.0.0.1:${provider.port}`,
    country: "US",
    models: ["searches-0", "searches-3", `searches-${HUGE}`],
    scope: "organization",
  };
  expect((await gw.op({ key: gw.init.keyValue }, "provider.create", searcher)).status).toBe(200);
});

afterAll(async () => {
  await gw.stop();
  provider.stop(true);
});

const search = (maxUses?: number) => ({ type: "web_search_20250305", name: "web_search", ...(maxUses ? { max_uses: maxUses } : {}) });

/** The cost of one messages call's usage row. */
async function messagesCost(model: string, tools: unknown[], stream = false): Promise<number> {
  const before = await costs(model);
  const res = await gw.handle(
    new Request(`${gw.origin}/v1/messages`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": gw.init.keyValue, "anthropic-version": "2023-06-01" },
      body: JSON.stringify({
        model: `searcher/${model}`,
        max_tokens: 64,
        stream,
        tools,
        messages: [{ role: "user", content: "Look it up." }],
      }),
    }),
  );
  expect(res.status).toBe(200);
  await res.text();
  return (await costs(model)).length === before.length + 1 ? (await costs(model)).at(-1)! : Number.NaN;
}

async function costs(model: string): Promise<number[]> {
  await gw.rt.usage.flush();
  return (await gw.rt.store.listUsageEvents(gw.init.organization.id))
    .filter((e) => e.model === model)
    .sort((a, b) => a.createdAt - b.createdAt)
    .map((e) => e.costMicros);
}

test("a messages answer is charged the searches it reports, up to the max_uses its request allowed", async () => {
  const tokensOnly = await messagesCost("searches-0", [search(3)]);
  // As reported, within the request's limit: three searches beside the tokens.
  expect(await messagesCost("searches-3", [search(3)])).toBe(tokensOnly + 3 * WEB_SEARCH_FEE_MICROS);
  // 10^11 reported where the request allowed 3 (over two tools, 1 + 2): charged 3, not $1 billion.
  expect(await messagesCost(`searches-${HUGE}`, [search(1), search(2)])).toBe(tokensOnly + 3 * WEB_SEARCH_FEE_MICROS);
  expect(await messagesCost(`searches-${HUGE}`, [search(3)], true)).toBe(tokensOnly + 3 * WEB_SEARCH_FEE_MICROS);
  // No web search tool at all: no search could have run.
  expect(await messagesCost(`searches-${HUGE}`, [])).toBe(tokensOnly);
});

test("a chat call translated to the messages format is charged no searches: its request has no web search tool", async () => {
  const chat = async (model: string) => {
    const res = await gw.handle(
      new Request(`${gw.origin}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${gw.init.keyValue}` },
        body: JSON.stringify({ model: `searcher/${model}`, max_tokens: 64, messages: [{ role: "user", content: "Look it up." }] }),
      }),
    );
    expect(res.status).toBe(200);
    await res.text();
    return (await costs(model)).at(-1)!;
  };
  expect(await chat(`searches-${HUGE}`)).toBe(await chat("searches-0"));
});

test("a web search tool without max_uses bounds nothing: the reported count is charged", async () => {
  const tokensOnly = await messagesCost("searches-0", [search()]);
  expect(await messagesCost("searches-3", [search()])).toBe(tokensOnly + 3 * WEB_SEARCH_FEE_MICROS);
});
