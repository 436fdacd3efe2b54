/**
 * How a native stream ends (forward.ts's tap), through the whole gateway at a provider that
 * misbehaves on purpose (the mock provider's fault steers, test/support/odd-provider.ts): one that ends without its closing
 * event is an error the official client raises, charged as a cut stream, unless it said how
 * it finished (then the gateway writes the closing event); an error event that quotes the
 * provider's key reaches the caller without it, native, split across chunks, or translated.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type OddGateway, PROMPT, startOddGateway } from "../support/odd-provider.ts";

let odd: OddGateway;
beforeAll(async () => {
  odd = await startOddGateway();
});
afterAll(() => odd.stop());

const ask = [{ role: "user" as const, content: PROMPT }];
/** The odd provider's key (the mock provider's fault steers, test/support/odd-provider.ts), which its errors quote. */
const KEY = "k-1234567890";

const messagesStream = (model: string) => odd.post("/v1/messages", { model, max_tokens: 100, stream: true, messages: ask });

describe("a native stream that ends without its closing event", () => {
  test("chat, cut before its finish: the official client raises stream_interrupted, the call charged as a cut stream", async () => {
    const stream = odd.openai().chat.completions.stream({ model: "odd-chat/chat.fault-cut", messages: ask });
    await expect(stream.finalChatCompletion()).rejects.toThrow("ended before its last event");
    const [row] = await odd.rows("chat.fault-cut");
    expect(row).toMatchObject({ status: 502, errorCode: "stream_interrupted" });
    expect(row?.promptTokens).toBeGreaterThan(100);
    expect(row?.completionTokens).toBeGreaterThanOrEqual(1);
  });

  test("messages, without message_stop or its stop reason: the official client raises the error event", async () => {
    const stream = odd.anthropic().messages.stream({ model: "odd-msg/msg.fault-no-stop", max_tokens: 100, messages: ask });
    await expect(stream.finalMessage()).rejects.toThrow("ended before its last event");
    const [row] = await odd.rows("msg.fault-no-stop");
    expect(row).toMatchObject({ status: 502, errorCode: "stream_interrupted", promptTokens: 50 });
    expect(row?.completionTokens).toBeGreaterThanOrEqual(4);
  });

  test("chat that gave its finish reason and usage but lost [DONE]: whole, the gateway writes [DONE]", async () => {
    const seen = await odd.events(await odd.chatStream("odd-chat/chat.fault-no-done", { stream_options: { include_usage: true } }));
    expect(seen.at(-1)).toBe("[DONE]");
    expect(seen.some((e) => (e as { error?: unknown }).error)).toBe(false);
    const [row] = await odd.rows("chat.fault-no-done");
    expect(row).toMatchObject({ status: 200, errorCode: null, promptTokens: 9, completionTokens: 2 });
  });

  test("messages that gave its stop reason but lost message_stop: whole, the official client gets its message", async () => {
    const final = await odd
      .anthropic()
      .messages.stream({ model: "odd-msg/msg.fault-no-close", max_tokens: 100, messages: ask })
      .finalMessage();
    expect(final.stop_reason).toBe("end_turn");
    expect(final.content.map((b) => (b.type === "text" ? b.text : b.type))).toEqual(["Whole."]);
    const text = await (await messagesStream("odd-msg/msg.fault-no-close")).text();
    expect(text.trimEnd().endsWith('event: message_stop\ndata: {"type":"message_stop"}')).toBe(true);
  });
});

test("a client that leaves on the closing event (the official client's stream helper) left a whole answer: accounted as answered", async () => {
  const final = await odd.openai().chat.completions.stream({ model: "odd-chat/chat.fault-no-usage", messages: ask }).finalChatCompletion();
  expect(final.choices[0]?.message.content).toBe("The sea is wide.");
  const [row] = await odd.rows("chat.fault-no-usage");
  expect(row).toMatchObject({ status: 200, errorCode: null });
});

describe("an error event that quotes the provider's key", () => {
  test("native messages: relayed without the key", async () => {
    const text = await (await messagesStream("odd-msg/msg.fault-key-error")).text();
    expect(text).toContain("event: error");
    expect(text).toContain("key [redacted] was revoked mid-way");
    expect(text).not.toContain(KEY);
  });

  test("native chat, the event split across chunks inside the key: relayed whole, without the key", async () => {
    const seen = await odd.events(await odd.chatStream("odd-chat/chat.fault-key-error"));
    expect(seen.at(-1)).toEqual({ error: { message: "key [redacted] was revoked mid-way", type: "invalid_request_error" } });
    expect(JSON.stringify(seen)).not.toContain(KEY);
  });

  test("translated for a chat caller: the official client raises it without the key", async () => {
    const stream = odd.openai().chat.completions.stream({ model: "odd-msg/msg.fault-key-error", messages: ask });
    const err = await stream.finalChatCompletion().catch((e: Error) => e);
    expect(String(err)).toContain("key [redacted] was revoked mid-way");
    expect(String(err)).not.toContain(KEY);
  });
});
