/**
 * What a translated call is charged, through the whole gateway at a provider that answers
 * oddly on purpose (the mock provider's fault steers, test/support/odd-provider.ts): a chat caller at a messages-format
 * provider, and a stream whose provider sends no usage. One usage row with the provider's
 * counts, or the estimate when it sent none; the usage details the caller reads.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type OddGateway, startOddGateway } from "../support/odd-provider.ts";

let odd: OddGateway;
beforeAll(async () => {
  odd = await startOddGateway();
});
afterAll(() => odd.stop());

const chatStream = (model: string, extra?: object) => odd.chatStream(model, extra);
const events = (res: Response) => odd.events(res);
const rows = (model: string) => odd.rows(model);

describe("spend on streams without their usage", () => {
  test("a chat stream whose provider reports no usage is charged the estimate, as a cut one is", async () => {
    const res = await chatStream("odd-chat/chat.fault-no-usage");
    expect(res.status).toBe(200);
    await res.text();
    const [row] = await rows("chat.fault-no-usage");
    // Some 200 prompt tokens, estimated; at least one token for each of the four pieces.
    expect(row?.promptTokens).toBeGreaterThan(100);
    expect(row?.completionTokens).toBeGreaterThanOrEqual(4);
  });

  test("a translated messages stream that ends without message_stop: the provider's prompt count is charged, the caller told", async () => {
    const res = await chatStream("odd-msg/msg.fault-no-stop", { stream_options: { include_usage: true } });
    const seen = await events(res);
    const usage = seen.find((e) => (e as { usage?: unknown }).usage) as { usage: { prompt_tokens: number } } | undefined;
    expect(usage?.usage.prompt_tokens).toBe(50);
    // The caller's stream ends with an error in its own envelope, not silently.
    expect(seen.at(-1)).toMatchObject({ error: { code: "stream_interrupted" } });
    expect(seen).not.toContain("[DONE]");
    const [row] = await rows("msg.fault-no-stop");
    expect(row?.promptTokens).toBe(50);
    expect(row?.completionTokens).toBeGreaterThanOrEqual(4);
  });

  test("a translated messages stream broken off by an error event is charged the prompt it reported", async () => {
    const res = await chatStream("odd-msg/msg.fault-error-event");
    const seen = await events(res);
    expect(seen.at(-1)).toMatchObject({ error: { message: "Overloaded", type: "overloaded_error" } });
    // The caller did not ask for usage: the usage chunk is not shown.
    expect(seen.some((e) => (e as { usage?: unknown }).usage)).toBe(false);
    const [row] = await rows("msg.fault-error-event");
    expect(row?.promptTokens).toBe(50);
    expect(row?.completionTokens).toBeGreaterThanOrEqual(2);
  });
});

test("a client that leaves a translated stream mid-way is charged the prompt the provider reported, not an estimate", async () => {
  const res = await chatStream("odd-msg/msg.fault-stall");
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  let seen = "";
  while (!seen.includes("The ")) seen += new TextDecoder().decode((await reader.read()).value);
  await reader.cancel();
  const [row] = await rows("msg.fault-stall");
  expect(row).toMatchObject({ status: 499, errorCode: "stream_interrupted", promptTokens: 1234 });
  expect(row?.completionTokens).toBeGreaterThanOrEqual(1);
});

describe("usage details across the translation", () => {
  test("cache reads of a messages provider are chat's cached_tokens, in a stream", async () => {
    const res = await chatStream("odd-msg/msg.fault-usage-repeated", { stream_options: { include_usage: true } });
    const seen = await events(res);
    const chunk = seen.find((e) => (e as { usage?: unknown }).usage) as { usage: Record<string, unknown> };
    expect(chunk.usage).toMatchObject({ prompt_tokens: 50, completion_tokens: 7, prompt_tokens_details: { cached_tokens: 40 } });
    const [row] = await rows("msg.fault-usage-repeated");
    expect([row?.promptTokens, row?.completionTokens]).toEqual([50, 7]);
  });
});
