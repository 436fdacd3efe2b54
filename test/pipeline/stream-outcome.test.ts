/**
 * What a stream's outcome records (stream-outcome.ts), through the whole gateway and the
 * official clients at the mock provider's fault steers: a provider's error event mid-stream
 * is the failure the same error would be as a whole answer (its usage row, the provider's
 * health, the metrics), still charged what was used; a translated stream that ends early is
 * recorded as a native one is; `"error": null` in every chunk is no error event. Shutdown waits
 * for every running stream's call to be accounted.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startInProcessGateway } from "../support/in-process-gateway.ts";
import { type OddGateway, PROMPT, startOddGateway } from "../support/odd-provider.ts";

let odd: OddGateway;
beforeAll(async () => {
  odd = await startOddGateway();
});
afterAll(() => odd.stop());

const ask = [{ role: "user" as const, content: PROMPT }];

/** ai.health's figures for one provider's model: its error rate and the circuit's consecutive failures. */
async function health(provider: string, model: string): Promise<{ errorRate: number; consecutiveFailures: number }> {
  const h = await odd.gw.op({ key: odd.gw.init.keyValue }, "ai.health");
  expect(h.status).toBe(200);
  const p = h.body.data.providers.find((x: { name: string }) => x.name === provider);
  const m = p?.models.find((x: { model: string }) => x.model === model);
  return { errorRate: m?.errorRate ?? 0, consecutiveFailures: p?.consecutiveFailures ?? 0 };
}

/** The gateway's /metrics text. */
const metrics = async () => (await odd.gw.handle(new Request(`${odd.gw.origin}/metrics`))).text();

describe("a provider's error event on a native stream", () => {
  test("messages, overloaded_error: relayed, recorded as the provider's 503, counted against its health, charged what was used", async () => {
    const stream = odd.anthropic().messages.stream({ model: "odd-msg/msg.fault-error-event", max_tokens: 100, messages: ask });
    await expect(stream.finalMessage()).rejects.toThrow("Overloaded");
    const [row] = await odd.rows("msg.fault-error-event");
    expect(row).toMatchObject({ status: 503, errorCode: "provider_unavailable", promptTokens: 50 });
    expect(row?.completionTokens).toBeGreaterThanOrEqual(2);
    const h = await health("odd-msg", "msg.fault-error-event");
    expect(h.errorRate).toBeGreaterThan(0);
    expect(h.consecutiveFailures).toBeGreaterThanOrEqual(1);
    expect(await metrics()).toMatch(/gen_ai_client_operation_duration_seconds_count\{[^}]*error_type="provider_unavailable"\} [1-9]/);
  });

  test("chat, a server_error chunk: the official client raises it, recorded as the provider's 502, charged as a cut stream", async () => {
    const stream = odd.openai().chat.completions.stream({ model: "odd-chat/chat.fault-error-event", messages: ask });
    await expect(stream.finalChatCompletion()).rejects.toThrow("The server had an error");
    const [row] = await odd.rows("chat.fault-error-event");
    expect(row).toMatchObject({ status: 502, errorCode: "provider_error" });
    expect(row?.promptTokens).toBeGreaterThan(100);
    expect(row?.completionTokens).toBeGreaterThanOrEqual(2);
    expect((await health("odd-chat", "chat.fault-error-event")).errorRate).toBeGreaterThan(0);
  });

  // The provider refused the configuration's own key, which no caller chooses: held against the
  // configuration's health as the same 401 answered whole is (fallback.ts, `isProviderFault`).
  test("an authentication_error event is recorded as its 401 and counted against the configuration's health, as a whole 401 is", async () => {
    await (await odd.post("/v1/messages", { model: "odd-msg/msg.fault-key-error", max_tokens: 100, stream: true, messages: ask })).text();
    const [row] = await odd.rows("msg.fault-key-error");
    expect(row).toMatchObject({ status: 401, errorCode: "provider_error", promptTokens: 20 });
    expect((await health("odd-msg", "msg.fault-key-error")).errorRate).toBeGreaterThan(0);
  });
});

describe("a translated stream (messages provider, chat caller)", () => {
  test("ended early: recorded 502 stream_interrupted as a native one is, charged the prompt it reported", async () => {
    const stream = odd.openai().chat.completions.stream({ model: "odd-msg/msg.fault-no-stop", messages: ask });
    await expect(stream.finalChatCompletion()).rejects.toThrow("ended before its last event");
    const rows = await odd.rows("msg.fault-no-stop");
    expect(rows.at(-1)).toMatchObject({ status: 502, errorCode: "stream_interrupted", promptTokens: 50 });
    expect(rows.at(-1)?.completionTokens).toBeGreaterThanOrEqual(4);
  });

  test("broken off by overloaded_error: recorded as the provider's 503, as the native stream is", async () => {
    const stream = odd.openai().chat.completions.stream({ model: "odd-msg/msg.fault-error-event", messages: ask });
    await expect(stream.finalChatCompletion()).rejects.toThrow("Overloaded");
    const rows = await odd.rows("msg.fault-error-event");
    expect(rows.at(-1)).toMatchObject({ status: 503, errorCode: "provider_unavailable", promptTokens: 50 });
  });
});

test('a chat server that writes "error": null in every chunk: a stream cut before [DONE] is still flagged stream_interrupted', async () => {
  const stream = odd.openai().chat.completions.stream({ model: "odd-chat/chat.fault-null-error", messages: ask });
  await expect(stream.finalChatCompletion()).rejects.toThrow("ended before its last event");
  const [row] = await odd.rows("chat.fault-null-error");
  expect(row).toMatchObject({ status: 502, errorCode: "stream_interrupted" });
  expect(row?.completionTokens).toBeGreaterThanOrEqual(2);
});

test("shutdown waits until a running stream's call is accounted", async () => {
  const encoder = new TextEncoder();
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const chunk = (delta: object) =>
    `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", model: "held", choices: [{ index: 0, delta }] })}\n\n`;
  // A provider whose stream sends its first chunk, then waits for the test before the rest.
  const provider = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      if (req.method === "GET") return Response.json({ data: [] });
      let sent = 0;
      return new Response(
        new ReadableStream({
          async pull(c) {
            if (sent++ === 0) return c.enqueue(encoder.encode(chunk({ role: "assistant", content: "hi" })));
            await released;
            c.enqueue(encoder.encode(`${chunk({ content: " there" })}data: [DONE]\n\n`));
            c.close();
          },
        }),
        { headers: { "content-type": "text/event-stream" } },
      );
    },
  });
  const gw = await startInProcessGateway({ logLevel: "error" });
  try {
    const key = { key: gw.init.keyValue };
    const created = await gw.op(key, "provider.create", {
      provider: "custom",
      name: "held",
      apiKey: "k-1234567890",
      baseUrl: `http://127.0.0.1:${provider.port}/v1`,
      country: "US",
      models: ["held"],
      scope: "organization",
    });
    expect(created.status).toBe(200);
    const res = await gw.handle(
      new Request(`${gw.origin}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${gw.init.keyValue}` },
        body: JSON.stringify({ model: "held/held", stream: true, messages: ask }),
      }),
    );
    expect(res.status).toBe(200);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    expect((await reader.read()).done).toBe(false);
    let shutDown = false;
    const shutdown = gw.stop().then(() => (shutDown = true));
    // A turn of the event loop for the shutdown to get as far as the streams.
    await Bun.sleep(20);
    expect(shutDown).toBe(false);
    release();
    while (!(await reader.read()).done) {}
    await shutdown;
    expect(shutDown).toBe(true);
  } finally {
    release();
    provider.stop(true);
  }
});
