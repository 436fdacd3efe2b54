/**
 * The idle bound on providers' streams (GW_STREAM_IDLE_TIMEOUT_S, 1 s here), through the
 * whole gateway at a provider that stalls on purpose (the mock provider's fault steers, test/support/odd-provider.ts): a
 * stream whose provider goes silent ends with the caller's own terminal error, native or
 * translated, and is charged as a cut stream; one whose provider only pings while it
 * thinks is not cut. The official clients raise the error rather than wait.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { StreamIdleWatch } from "../../src/pipeline/stream-idle.ts";
import { type OddGateway, PROMPT, startOddGateway } from "../support/odd-provider.ts";

let odd: OddGateway;
beforeAll(async () => {
  odd = await startOddGateway({ GW_STREAM_IDLE_TIMEOUT_S: "1" });
});
afterAll(() => odd.stop());

const ask = [{ role: "user" as const, content: PROMPT }];

describe("a provider that sends its headers and a piece, then nothing", () => {
  test("native chat: the official client raises the gateway's error, and the call is charged as a cut stream", async () => {
    const stream = odd.openai().chat.completions.stream({ model: "odd-chat/chat.fault-stall", messages: ask });
    await expect(stream.finalChatCompletion()).rejects.toThrow("sent nothing for 1 s");
    const [row] = await odd.rows("chat.fault-stall");
    expect(row).toMatchObject({ status: 504, errorCode: "stream_interrupted" });
    // The prompt by the tokenizer (the provider never reported it), one token for the piece that passed.
    expect(row?.promptTokens).toBeGreaterThan(100);
    expect(row?.completionTokens).toBeGreaterThanOrEqual(1);
  });

  test("native messages: the official client raises the error event, and the provider's prompt count is charged", async () => {
    const stream = odd.anthropic().messages.stream({ model: "odd-msg/msg.fault-stall", max_tokens: 100, messages: ask });
    await expect(stream.finalMessage()).rejects.toThrow("sent nothing for 1 s");
    const [row] = await odd.rows("msg.fault-stall");
    expect(row).toMatchObject({ status: 504, errorCode: "stream_interrupted", promptTokens: 1234 });
  });

  test("translated for a chat caller: the stream ends with the chat error, the call charged the provider's prompt", async () => {
    const other = await startOddGateway({ GW_STREAM_IDLE_TIMEOUT_S: "1" });
    try {
      const seen = await other.events(await other.chatStream("odd-msg/msg.fault-stall"));
      expect(seen.at(-1)).toMatchObject({ error: { code: "stream_interrupted" } });
      expect(seen).not.toContain("[DONE]");
      const [row] = await other.rows("msg.fault-stall");
      expect(row).toMatchObject({ status: 504, errorCode: "stream_interrupted", promptTokens: 1234 });
    } finally {
      await other.stop();
    }
  });

  test("Responses over a chat provider: the response fails with response.failed", async () => {
    const res = await odd.post("/v1/responses", { model: "odd-chat/chat.fault-stall", input: PROMPT, stream: true });
    const seen = (await odd.events(res)) as { type: string; response?: { error?: { message: string } } }[];
    expect(seen.at(-1)?.type).toBe("response.failed");
    expect(seen.at(-1)?.response?.error?.message).toContain("sent nothing for 1 s");
    const [row] = await odd.rows("chat.fault-stall");
    expect(row).toMatchObject({ status: 504, errorCode: "stream_interrupted" });
  });
});

test("a provider that sends only pings while it thinks, longer than the bound, is not cut: its bytes are counted before translation", async () => {
  const seen = (await odd.events(await odd.chatStream("odd-msg/msg.fault-thinking"))) as { choices?: { delta?: { content?: string } }[] }[];
  expect(seen.map((c) => c.choices?.[0]?.delta?.content ?? "").join("")).toBe("Done.");
  expect(seen.at(-1) as unknown).toBe("[DONE]");
  const [row] = await odd.rows("msg.fault-thinking");
  expect(row).toMatchObject({ status: 200, errorCode: null, promptTokens: 12, completionTokens: 3 });
});

describe("the sweep", () => {
  test("starts with the first stream watched, and not at all without a bound", () => {
    const watch = new StreamIdleWatch(1000);
    expect(watch.sweeping).toBe(false);
    const a = watch.watch();
    const b = watch.watch();
    expect(watch.sweeping).toBe(true);
    watch.unwatch(a);
    watch.unwatch(b);
    watch.unwatch(b);
    watch.stop();
    const unbounded = new StreamIdleWatch(0);
    unbounded.watch();
    expect(unbounded.sweeping).toBe(false);
  });

  test("the first sweep that finds no stream open stops it", async () => {
    const watch = new StreamIdleWatch(200);
    watch.unwatch(watch.watch());
    while (watch.sweeping) await Bun.sleep(10);
    expect(watch.tick).toBeGreaterThan(0);
  });

  test("the drain's cut ends every open stream, marked as the shutdown's, with or without a bound", () => {
    for (const bound of [0, 1000]) {
      const watch = new StreamIdleWatch(bound);
      const cancelled: number[] = [];
      const streams = [0, 1, 2].map((i) => {
        const s = watch.watch();
        s.cancel = () => cancelled.push(i);
        return s;
      });
      watch.unwatch(streams[1]!);
      expect(watch.cutAll()).toBe(2);
      expect(cancelled.sort()).toEqual([0, 2]);
      expect(streams.map((s) => [s.fired, s.byShutdown])).toEqual([
        [true, true],
        [false, false],
        [true, true],
      ]);
      expect(watch.cutAll()).toBe(0);
      watch.stop();
    }
  });

  test("shutdown stops it with streams still watched", () => {
    const watch = new StreamIdleWatch(1000);
    watch.watch();
    watch.stop();
    expect(watch.sweeping).toBe(false);
  });
});
