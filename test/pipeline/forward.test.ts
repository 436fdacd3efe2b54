/**
 * One attempt at a provider that misbehaves after it was sent: an answer with no body
 * where a stream was asked for, an error whose body is cut, never ends, or outlasts the
 * deadline, a whole answer whose body stalls, token counts that are not counts, a
 * client that leaves before the answer (charged its prompt), and a whole answer or a
 * stream event longer than the gateway reads (GW_MAX_ANSWER_BYTES). Each attempt ends with the
 * gateway's own error in the caller's envelope, one usage row, and nothing left waiting
 * at shutdown. The misbehaving provider is the mock's fault steers (`odd/fault-...`, or the
 * end user `fault-hang` for a priced model; docs/mock-provider.md), whose request list and
 * stats tell when a call arrived and when the gateway hung up. One case keeps a small server
 * of the test's own, because the test paces it: a stream whose overlong event waits until
 * the client saw the first. A raw socket cuts a body short of its Content-Length, which no
 * HTTP server sends.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { TCPSocketListener } from "bun";
import type { UsageEvent } from "../../src/domain/types.ts";
import { type InProcessGateway, startInProcessGateway } from "../support/in-process-gateway.ts";
import type { RunningMock } from "../support/gateway-process.ts";
import { startMockInProcess } from "../support/in-process.ts";

/**
 * Resolved by the test once its client has the stream's first event: the provider sends the
 * overlong event only then. An error in a stream discards what its reader has not taken yet,
 * so without the wait the client may see the cut alone, depending on who runs first.
 */
let markFirstEventSeen!: () => void;
const firstEventSeen = new Promise<void>((resolve) => {
  markFirstEventSeen = resolve;
});

const encoder = new TextEncoder();
const json = { "content-type": "application/json" };

/** The test's own provider: a stream whose second event runs past the bound (some 200 KB, in 16 KB pieces), paced by the test. */
function pacedStream(model: string): Response {
  const pieces = [
    `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", model, choices: [{ index: 0, delta: { content: "hi" } }] })}\n\n`,
    "data: ",
    ...Array.from({ length: 13 }, () => "x".repeat(16 * 1024)),
    "\n\ndata: [DONE]\n\n",
  ];
  return new Response(
    new ReadableStream({
      async pull(c) {
        const piece = pieces.shift();
        if (piece === "data: ") await firstEventSeen;
        if (piece === undefined) c.close();
        else c.enqueue(encoder.encode(piece));
      },
    }),
    { status: 200, headers: { "content-type": "text/event-stream" } },
  );
}

/** The mock provider, whose fault steers are the other misbehaviours. */
let mock: RunningMock;
let provider: ReturnType<typeof Bun.serve>;
/** Answers any request with a 500 whose body stops short of its Content-Length, and closes. */
let cutter: TCPSocketListener;
/** Deadline of 2 s, for the calls that must outlast it. */
let quick: InProcessGateway;
/** The default deadline (300 s), for the calls that must end on their own; answers read up to 64 KiB. */
let patient: InProcessGateway;

async function configure(gw: InProcessGateway): Promise<void> {
  const base = `http://127.0.0.1:${provider.port}`;
  const key = { key: gw.init.keyValue };
  const faults = [
    "no-body",
    "error-endless",
    "error-stalls",
    "body-stalls",
    "bad-usage",
    "long-answer",
    "long-answer-chunked",
    "long-answer-gzip",
  ];
  const custom = {
    provider: "custom",
    name: "odd",
    apiKey: "k-1234567890",
    baseUrl: `${mock.url}/v1`,
    country: "US",
    models: faults.map((f) => `fault-${f}`),
    scope: "organization",
  };
  expect((await gw.op(key, "provider.create", custom)).status).toBe(200);
  const paced = { ...custom, name: "paced", baseUrl: `${base}/v1`, models: ["stream-long-event"] };
  expect((await gw.op(key, "provider.create", paced)).status).toBe(200);
  // The raw server's cut, in both formats.
  const cut = `http://127.0.0.1:${cutter.port}`;
  const cutModels = { models: ["error-cut"] };
  expect((await gw.op(key, "provider.create", { ...custom, ...cutModels, name: "cut", baseUrl: `${cut}/v1` })).status).toBe(200);
  expect((await gw.op(key, "provider.create", { ...custom, ...cutModels, name: "cut-msg", format: "messages", baseUrl: cut })).status).toBe(
    200,
  );
  const oddMsg = { ...custom, name: "odd-msg", format: "messages", baseUrl: mock.url, models: ["fault-long-answer"] };
  expect((await gw.op(key, "provider.create", oddMsg)).status).toBe(200);
  // A priced model at the mock, for what an abandoned call is charged.
  const priced = { provider: "openai", apiKey: "sk-odd-1234567890", baseUrl: `${mock.url}/v1`, scope: "organization" };
  expect((await gw.op(key, "provider.create", priced)).status).toBe(200);
}

beforeAll(async () => {
  cutter = Bun.listen({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      data(socket) {
        socket.end(
          'HTTP/1.1 500 Internal Server Error\r\ncontent-type: application/json\r\ncontent-length: 200\r\n\r\n{"error":{"message":"over',
        );
      },
    },
  });
  mock = startMockInProcess();
  provider = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      if (req.method === "GET") return Response.json({ data: [] });
      return pacedStream(((await req.json()) as { model: string }).model);
    },
  });
  quick = await startInProcessGateway({ env: { GW_UPSTREAM_TIMEOUT_S: "2" }, logLevel: "error" });
  patient = await startInProcessGateway({ env: { GW_MAX_ANSWER_BYTES: String(64 * 1024) }, logLevel: "error" });
  await configure(quick);
  await configure(patient);
});

afterAll(async () => {
  await quick.stop();
  await patient.stop();
  provider.stop(true);
  await mock.stop();
  cutter.stop(true);
});

/** Resolves once the mock has a call whose prompt is `prompt`, or as soon as `answered` settles (refused before it got there). */
async function arrivedWith(prompt: string, answered: Promise<unknown>): Promise<void> {
  let settled = false;
  answered.finally(() => {
    settled = true;
  });
  while (!settled && !(await mock.requests()).some((r) => r.body?.messages?.[0]?.content === prompt)) await Bun.sleep(5);
}

/** Resolves once the gateway has hung up on `n` calls of a mock fault whose body never ends by itself. */
async function hungUpOn(model: string, n: number): Promise<void> {
  while (((await mock.stats()).abandonedByModel[model] ?? 0) < n) await Bun.sleep(5);
}

/** The error of an answer in the chat-completions envelope. */
const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string; message: string } }).error;

function chat(gw: InProcessGateway, model: string, extra: object = {}, signal?: AbortSignal): Promise<Response> {
  return gw.handle(
    new Request(`${gw.origin}/v1/chat/completions`, {
      method: "POST",
      signal,
      headers: { ...json, authorization: `Bearer ${gw.init.keyValue}` },
      body: JSON.stringify({ model, messages: [{ role: "user", content: "Tell me about the sea. ".repeat(40) }], ...extra }),
    }),
  );
}

/** The usage rows of `model` so far, once the write-behind buffer has written them. */
async function rows(gw: InProcessGateway, model: string): Promise<UsageEvent[]> {
  await gw.rt.usage.flush();
  return (await gw.rt.store.listUsageEvents(gw.init.organization.id)).filter((e) => e.model === model);
}

test("a stream answered with no body is a 502, accounted, and leaves nothing for shutdown to wait on", async () => {
  const gw = await startInProcessGateway({ logLevel: "error" });
  try {
    await configure(gw);
    const res = await chat(gw, "odd/fault-no-body", { stream: true });
    expect(res.status).toBe(502);
    expect((await errorOf(res)).code).toBe("provider_error");
    expect((await rows(gw, "fault-no-body")).map((e) => [e.status, e.errorCode])).toEqual([[502, "provider_error"]]);
  } finally {
    // Resolves only once every stream's call is accounted: one never started must not hold it.
    await gw.stop();
  }
});

test("an error whose body is cut off is the provider's 502, accounted as its failure, in either envelope", async () => {
  const res = await chat(patient, "cut/error-cut");
  expect(res.status).toBe(502);
  expect((await errorOf(res)).code).toBe("provider_error");
  const messages = await patient.handle(
    new Request(`${patient.origin}/v1/messages`, {
      method: "POST",
      headers: { ...json, "x-api-key": patient.init.keyValue, "anthropic-version": "2023-06-01" },
      body: JSON.stringify({ model: "cut-msg/error-cut", max_tokens: 5, messages: [{ role: "user", content: "hi" }] }),
    }),
  );
  expect(messages.status).toBe(502);
  expect(await messages.json()).toMatchObject({ type: "error", error: { type: "api_error" } });
  expect((await rows(patient, "error-cut")).map((e) => [e.status, e.errorCode])).toEqual([
    [502, "provider_error"],
    [502, "provider_error"],
  ]);
});

test("an error body that never ends is read only as far as its message is kept, not to the deadline", async () => {
  const res = await chat(quick, "odd/fault-error-endless");
  expect(res.status).toBe(502);
  const error = await errorOf(res);
  expect(error.code).toBe("provider_error");
  expect(error.message).toStartWith("odd failed (HTTP 500): xxx");
  expect((await rows(quick, "fault-error-endless")).map((e) => [e.status, e.errorCode])).toEqual([[502, "provider_error"]]);
});

test("an error body that outlasts the deadline ends at it, as the provider's failure with what came of its message", async () => {
  const res = await chat(quick, "odd/fault-error-stalls");
  await hungUpOn("fault-error-stalls", 1);
  expect(res.status).toBe(502);
  expect(await errorOf(res)).toMatchObject({ code: "provider_error", message: 'odd failed (HTTP 500): {"error":{"message":"over' });
  expect((await rows(quick, "fault-error-stalls")).map((e) => [e.status, e.errorCode])).toEqual([[502, "provider_error"]]);
});

test("a whole answer whose body outlasts the deadline is a 504, as a late answer is", async () => {
  const res = await chat(quick, "odd/fault-body-stalls");
  expect(res.status).toBe(504);
  expect((await errorOf(res)).code).toBe("provider_timeout");
  expect((await rows(quick, "fault-body-stalls")).map((e) => [e.status, e.errorCode])).toEqual([[504, "provider_timeout"]]);
});

test("a client that leaves while a whole answer's body comes is its own 499, not the provider's failure", async () => {
  const provider = (await patient.op({ key: patient.init.keyValue }, "provider.list")).body.data.providers.find(
    (p: { name: string }) => p.name === "odd",
  );
  const sent = () => patient.rt.services.rateUsage.snapshot(provider.id, Date.now()).requestsToday;
  const before = sent();
  const client = new AbortController();
  const answered = chat(patient, "odd/fault-body-stalls", {}, client.signal);
  // The answer's headers are in once the attempt counts what the provider was sent.
  while (sent() === before) await Bun.sleep(5);
  client.abort();
  expect((await answered).status).toBe(499);
  expect((await rows(patient, "fault-body-stalls")).map((e) => [e.status, e.errorCode])).toEqual([[499, "client_closed_request"]]);
});

test("a stream counts against its provider configuration once it has ended (after its first byte), a whole answer once it came", async () => {
  const listed = (await patient.op({ key: patient.init.keyValue }, "provider.list")).body.data.providers as { id: string; name: string }[];
  const { id } = listed.find((p) => p.name === "openai") as { id: string };
  const sent = () => patient.rt.services.rateUsage.snapshot(id, Date.now()).requestsToday;
  const before = sent();
  const res = await chat(patient, "openai/gpt-4o-mini", { stream: true });
  expect(res.status).toBe(200);
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  expect((await reader.read()).done).toBe(false);
  // The first chunk is the caller's: the provider's headers are read once the stream ends.
  expect(sent()).toBe(before);
  while (!(await reader.read()).done) {}
  await rows(patient, "gpt-4o-mini");
  expect(sent()).toBe(before + 1);
  const whole = await chat(patient, "openai/gpt-4o-mini");
  expect(sent()).toBe(before + 2);
  expect(whole.status).toBe(200);
});

test("a client that leaves before a whole answer came is charged its prompt, so abandoned calls meet a cap", async () => {
  const key = { key: patient.init.keyValue };
  const created = await patient.op(key, "org.service-account.create", { serviceAccountName: "leaver", spendCapCents: 1 });
  const { id, key: value } = created.body.data.apiKey;
  let left = 0;
  const leave = async () => {
    const client = new AbortController();
    // A prompt of its own, to find this call among those the mock saw.
    const prompt = `Tell me about the sea, part ${left + 1}. ${"Tell me about the sea. ".repeat(100)}`;
    const answered = patient.handle(
      new Request(`${patient.origin}/v1/chat/completions`, {
        method: "POST",
        signal: client.signal,
        headers: { ...json, authorization: `Bearer ${value}` },
        // About 600 prompt tokens of gpt-4o: some 1,500 micro-dollars. The end user steers the mock never to answer.
        body: JSON.stringify({ model: "gpt-4o", max_tokens: 5, user: "fault-hang", messages: [{ role: "user", content: prompt }] }),
      }),
    );
    // Refused before it reached the provider: nothing to leave.
    const first = await Promise.race([arrivedWith(prompt, answered).then(() => null), answered]);
    if (first) return first;
    client.abort();
    await hungUpOn("gpt-4o", ++left);
    return answered;
  };
  expect((await leave()).status).toBe(499);
  const [row] = (await rows(patient, "gpt-4o")).filter((e) => e.keyId === id);
  expect(row).toMatchObject({ status: 499, errorCode: "client_closed_request" });
  expect(row?.promptTokens).toBeGreaterThan(500);
  expect(row?.costMicros).toBeGreaterThan(1000);
  let refused: Response | null = null;
  for (let calls = 1; calls < 20 && !refused; calls++) {
    const res = await leave();
    if (res.status !== 499) refused = res;
  }
  expect(refused?.status).toBe(429);
  expect((await errorOf(refused as Response)).code).toBe("spend_cap_exceeded");
});

test("token counts that are not whole numbers of tokens are taken as unreported, and the usage flush goes on", async () => {
  expect((await chat(patient, "odd/fault-bad-usage")).status).toBe(200);
  expect((await chat(patient, "odd/fault-bad-usage")).status).toBe(200);
  const failures = patient.rt.usage.stats().failures;
  const written = (await rows(patient, "fault-bad-usage")).map((e) => [e.promptTokens, e.completionTokens, e.costMicros]);
  expect(written).toEqual([
    [0, 0, 0],
    [0, 0, 0],
  ]);
  expect(patient.rt.usage.stats().failures).toBe(failures);
});

test("a whole answer past GW_MAX_ANSWER_BYTES is the provider's 502, however it is sent, and charged its prompt as a failure", async () => {
  const configs = (await patient.op({ key: patient.init.keyValue }, "provider.list")).body.data.providers as { id: string; name: string }[];
  const odd = configs.find((p) => p.name === "odd")?.id as string;
  for (const model of ["fault-long-answer-chunked", "fault-long-answer", "fault-long-answer-gzip"]) {
    const res = await chat(patient, `odd/${model}`);
    expect(res.status).toBe(502);
    expect(await errorOf(res)).toMatchObject({
      code: "provider_error",
      message: "odd answered with more than 65536 bytes, the most this gateway reads (GW_MAX_ANSWER_BYTES).",
    });
    const [row] = await rows(patient, model);
    expect(row).toMatchObject({ status: 502, errorCode: "provider_error", completionTokens: 0 });
    // The prompt the provider read, estimated (some 200 tokens), as an abandoned call's is.
    expect(row?.promptTokens).toBeGreaterThan(100);
    expect(patient.rt.services.health.errorRate(odd, model)).toBeGreaterThan(0);
  }
  const messages = await patient.handle(
    new Request(`${patient.origin}/v1/messages`, {
      method: "POST",
      headers: { ...json, "x-api-key": patient.init.keyValue, "anthropic-version": "2023-06-01" },
      body: JSON.stringify({ model: "odd-msg/fault-long-answer", max_tokens: 5, messages: [{ role: "user", content: "hi" }] }),
    }),
  );
  expect(messages.status).toBe(502);
  expect(await messages.json()).toMatchObject({
    type: "error",
    error: { type: "api_error", message: expect.stringContaining("more than 65536 bytes") },
  });
});

test("a stream event past GW_MAX_ANSWER_BYTES cuts the stream there, accounted as a cut stream", async () => {
  const res = await chat(patient, "paced/stream-long-event", { stream: true });
  expect(res.status).toBe(200);
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  let received = "";
  const end = await (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return "end";
      received += new TextDecoder().decode(value);
      if (received.includes('"content":"hi"')) markFirstEventSeen();
    }
  })().catch(() => "cut");
  expect(end).toBe("cut");
  expect(received).toContain('"content":"hi"');
  expect(received).not.toContain("[DONE]");
  const [row] = await rows(patient, "stream-long-event");
  expect(row).toMatchObject({ status: 499, errorCode: "stream_interrupted" });
  expect(row?.promptTokens).toBeGreaterThan(100);
});
