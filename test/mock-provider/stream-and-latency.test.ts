/** `gateway mock-provider --latency-ms / --stream-chunks` (and their GW_MOCK_* variables): what a client sees. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { EventStreamCodec } from "@smithy/eventstream-codec";
import { fromUtf8, toUtf8 } from "@smithy/util-utf8";
import { CLI, ROOT, type RunningMock, startMockProvider } from "../support/gateway-process.ts";
import { sseEvents, sseJson } from "../support/sse-text.ts";

const CHUNKS = 7;
const LATENCY_MS = 300;
const chat = (stream: boolean, extra: object = {}) => ({
  model: "gpt-4o",
  stream,
  messages: [{ role: "user", content: "count my chunks" }],
  ...extra,
});
const messages = (stream: boolean) => ({
  model: "claude-sonnet-4-5",
  max_tokens: 512,
  stream,
  messages: [{ role: "user", content: "count my chunks" }],
});
/** A tool whose arguments (the query the message asks) are long enough to split into the chunks. */
const TOOLS = {
  tools: [
    {
      type: "function",
      function: { name: "lookup", parameters: { type: "object", properties: { query: { type: "string" } }, required: ["query"] } },
    },
  ],
};

async function post(url: string, body: object, headers: Record<string, string> = {}) {
  const started = performance.now();
  const res = await fetch(url, {
    method: "POST",
    headers: { authorization: "Bearer mock-key", "content-type": "application/json", "anthropic-version": "2023-06-01", ...headers },
    body: JSON.stringify(body),
  });
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { status: res.status, bytes, text: new TextDecoder().decode(bytes), elapsedMs: performance.now() - started };
}

const chatDeltas = (text: string) =>
  sseJson(text)
    .map((c) => c.choices[0]?.delta)
    .filter((d) => d && (typeof d.content === "string" ? d.content !== "" : d.tool_calls?.[0]?.function?.arguments));

const codec = new EventStreamCodec(toUtf8, fromUtf8);

/** The events inside the platform's binary event stream (each frame starts with its total length). */
function platformEvents(bytes: Uint8Array): any[] {
  const out: any[] = [];
  for (let at = 0; at < bytes.length; ) {
    const length = new DataView(bytes.buffer, bytes.byteOffset + at, 4).getUint32(0);
    const frame = codec.decode(bytes.subarray(at, at + length));
    out.push(JSON.parse(Buffer.from(JSON.parse(toUtf8(frame.body)).bytes, "base64").toString()));
    at += length;
  }
  return out;
}

describe(`--stream-chunks ${CHUNKS} --latency-ms ${LATENCY_MS}`, () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMockProvider(["--stream-chunks", String(CHUNKS), "--latency-ms", String(LATENCY_MS)]);
  });
  afterAll(() => mock.stop());

  test("chat: the streamed text arrives in exactly N delta chunks, and both answers take at least the latency", async () => {
    const plain = await post(`${mock.url}/v1/chat/completions`, chat(false));
    expect(plain.status).toBe(200);
    expect(plain.elapsedMs).toBeGreaterThanOrEqual(LATENCY_MS);
    const streamed = await post(`${mock.url}/v1/chat/completions`, chat(true, { stream_options: { include_usage: true } }));
    expect(streamed.elapsedMs).toBeGreaterThanOrEqual(LATENCY_MS);
    const deltas = chatDeltas(streamed.text);
    expect(deltas).toHaveLength(CHUNKS);
    // The pieces join back to the plain answer: splitting does not change what is said.
    expect(deltas.map((d) => d.content).join("")).toBe(JSON.parse(plain.text).choices[0].message.content);
    expect(streamed.text.trim().endsWith("data: [DONE]")).toBe(true);
  });

  test("chat: a tool call's arguments arrive in exactly N chunks", async () => {
    const plain = JSON.parse((await post(`${mock.url}/v1/chat/completions`, chat(false, TOOLS))).text);
    const deltas = chatDeltas((await post(`${mock.url}/v1/chat/completions`, chat(true, TOOLS))).text).filter((d) => d.tool_calls);
    expect(deltas).toHaveLength(CHUNKS);
    expect(deltas.map((d) => d.tool_calls[0].function.arguments).join("")).toBe(plain.choices[0].message.tool_calls[0].function.arguments);
  });

  test("messages: exactly N content_block_delta events, at least the latency", async () => {
    const streamed = await post(`${mock.url}/v1/messages`, messages(true));
    expect(streamed.status).toBe(200);
    expect(streamed.elapsedMs).toBeGreaterThanOrEqual(LATENCY_MS);
    const deltas = sseEvents(streamed.text).filter((e) => e.event === "content_block_delta");
    expect(deltas).toHaveLength(CHUNKS);
    const plain = JSON.parse((await post(`${mock.url}/v1/messages`, messages(false))).text);
    expect(deltas.map((e) => JSON.parse(e.data).delta.text).join("")).toBe(plain.content[0].text);
    expect(sseEvents(streamed.text).at(-1)?.event).toBe("message_stop");
  });

  test("the platform's binary event stream: exactly N content_block_delta frames, at least the latency", async () => {
    const body = { anthropic_version: "bedrock-2023-05-31", max_tokens: 512, messages: [{ role: "user", content: "count my chunks" }] };
    const streamed = await post(
      `${mock.url}/model/${encodeURIComponent("anthropic.claude-3-5-haiku-20241022-v1:0")}/invoke-with-response-stream`,
      body,
    );
    expect(streamed.status).toBe(200);
    expect(streamed.elapsedMs).toBeGreaterThanOrEqual(LATENCY_MS);
    const events = platformEvents(streamed.bytes);
    expect(events.filter((e) => e.type === "content_block_delta")).toHaveLength(CHUNKS);
    expect(events.at(-1)?.type).toBe("message_stop");
  });
});

describe("chunk counts beyond the usual answer", () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMockProvider(["--stream-chunks", "60"]);
  });
  afterAll(() => mock.stop());

  test("more chunks than the usual 20 words: the answer grows so each chunk carries a word", async () => {
    const deltas = chatDeltas((await post(`${mock.url}/v1/chat/completions`, chat(true))).text);
    expect(deltas).toHaveLength(60);
    for (const d of deltas) expect(d.content.trim().length).toBeGreaterThan(0);
  });

  test("an answer cut short by max_tokens is split by characters, still N chunks", async () => {
    const deltas = chatDeltas((await post(`${mock.url}/v1/chat/completions`, chat(true, { max_tokens: 20 }))).text);
    const plain = JSON.parse((await post(`${mock.url}/v1/chat/completions`, chat(false, { max_tokens: 20 }))).text).choices[0].message
      .content as string;
    expect(plain.split(" ")).toHaveLength(20);
    expect(plain.length).toBeGreaterThanOrEqual(60);
    expect(deltas).toHaveLength(60);
    expect(deltas.map((d) => d.content).join("")).toBe(plain);
  });
});

describe("defaults and the GW_MOCK_* variables", () => {
  test("without the flag a stream carries one word a chunk", async () => {
    const mock = await startMockProvider();
    try {
      const streamed = await post(`${mock.url}/v1/chat/completions`, chat(true));
      const deltas = chatDeltas(streamed.text);
      const plain = JSON.parse((await post(`${mock.url}/v1/chat/completions`, chat(false))).text).choices[0].message.content as string;
      expect(deltas).toHaveLength(plain.split(" ").length);
    } finally {
      await mock.stop();
    }
  });

  /** Starts the mock with only variables (no flags) and returns its address. */
  async function mockFromEnv(env: Record<string, string>, flags: string[] = []) {
    const proc = Bun.spawn(["bun", "run", CLI, "mock-provider", ...flags], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdout: "pipe",
      stderr: "pipe",
    });
    const reader = proc.stdout.getReader();
    const { value } = await reader.read();
    reader.releaseLock();
    return {
      url: JSON.parse(new TextDecoder().decode(value).split("\n")[0] as string).url as string,
      stop: () => (proc.kill(), proc.exited),
    };
  }

  test("GW_MOCK_PORT, GW_MOCK_STREAM_CHUNKS and GW_MOCK_LATENCY_MS set what the flags set; a flag wins", async () => {
    const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
    const port = probe.port;
    probe.stop(true);
    const fromEnv = await mockFromEnv({ GW_MOCK_PORT: String(port), GW_MOCK_STREAM_CHUNKS: "5", GW_MOCK_LATENCY_MS: "200" });
    try {
      expect(fromEnv.url).toBe(`http://127.0.0.1:${port}`);
      const streamed = await post(`${fromEnv.url}/v1/chat/completions`, chat(true));
      expect(chatDeltas(streamed.text)).toHaveLength(5);
      expect(streamed.elapsedMs).toBeGreaterThanOrEqual(200);
    } finally {
      await fromEnv.stop();
    }
    const flagWins = await mockFromEnv({ GW_MOCK_PORT: "1", GW_MOCK_STREAM_CHUNKS: "5" }, ["--port", "0", "--stream-chunks", "3"]);
    try {
      expect(chatDeltas((await post(`${flagWins.url}/v1/chat/completions`, chat(true))).text)).toHaveLength(3);
    } finally {
      await flagWins.stop();
    }
  });
});
