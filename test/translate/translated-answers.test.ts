/**
 * What a caller reads across the translation, through the whole gateway (the official
 * openai client included) at a provider that answers oddly on purpose
 * (the mock provider's fault steers, test/support/odd-provider.ts): parallel tool calls, a stream that ends early, answers in
 * shapes no provider writes, the provider's refusals in the caller's envelope, split
 * characters, and Responses over a chat provider.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type OddGateway, PROMPT, startOddGateway } from "../support/odd-provider.ts";

let odd: OddGateway;
beforeAll(async () => {
  odd = await startOddGateway();
});
afterAll(() => odd.stop());

const post = (path: string, body: object) => odd.post(path, body);
const chatStream = (model: string, extra?: object) => odd.chatStream(model, extra);
const events = (res: Response) => odd.events(res);
const rows = (model: string) => odd.rows(model);
const openai = () => odd.openai();
const gw = () => odd.gw;

describe("through the official openai client", () => {
  test("parallel tool calls streamed from a messages provider: arguments joined, a call without parameters has {}", async () => {
    const stream = openai().chat.completions.stream({
      model: "odd-msg/msg.fault-split-tools",
      messages: [{ role: "user", content: "Weather in Oslo, and the time?" }],
      tools: [
        { type: "function", function: { name: "weather", parameters: { type: "object", properties: { city: { type: "string" } } } } },
        { type: "function", function: { name: "now", parameters: { type: "object", properties: {} } } },
      ],
    });
    const final = await stream.finalChatCompletion();
    const choice = final.choices[0]!;
    expect(choice.finish_reason).toBe("tool_calls");
    expect(choice.message.content).toBe("Checking.");
    expect(
      choice.message.tool_calls?.map((c) => [
        c.id,
        c.type === "function" ? c.function.name : "",
        c.type === "function" ? JSON.parse(c.function.arguments) : null,
      ]),
    ).toEqual([
      ["toolu_1", "weather", { city: "Oslo" }],
      ["toolu_2", "now", {}],
    ]);
  });

  test("a messages stream that ended early is an error the client raises, not a complete-looking answer", async () => {
    const stream = openai().chat.completions.stream({ model: "odd-msg/msg.fault-no-stop", messages: [{ role: "user", content: "hi" }] });
    await expect(stream.finalChatCompletion()).rejects.toThrow("ended before its last event");
  });
});

describe("answers in shapes the translation does not know", () => {
  test("a whole chat answer the Responses translation cannot read: the provider's 502, accounted as such with its counts", async () => {
    const res = await post("/v1/responses", { model: "odd-chat/chat.fault-odd-shape", input: "hi" });
    expect(res.status).toBe(502);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain("tool_calls is not a list");
    const [row] = await rows("chat.fault-odd-shape");
    expect(row).toMatchObject({ status: 502, errorCode: "provider_error", promptTokens: 11, completionTokens: 3 });
  });

  test("a stream event whose data is JSON null, native or translated, in either caller's format: skipped, the call answered and accounted", async () => {
    const chat = await chatStream("odd-chat/chat.fault-null-event");
    expect(await chat.text()).toContain('"content":"Hi"');
    const messages = await gw().handle(
      new Request(`${gw().origin}/v1/messages`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": gw().init.keyValue, "anthropic-version": "2023-06-01" },
        body: JSON.stringify({
          model: "odd-msg/msg.fault-null-event",
          max_tokens: 5,
          stream: true,
          messages: [{ role: "user", content: "hi" }],
        }),
      }),
    );
    expect(await messages.text()).toContain("message_stop");
    const translated = await chatStream("odd-msg/msg.fault-null-event");
    expect(await translated.text()).toContain("[DONE]");
    expect((await rows("chat.fault-null-event")).map((r) => [r.status, r.promptTokens])).toEqual([[200, 9]]);
    expect((await rows("msg.fault-null-event")).map((r) => [r.status, r.promptTokens, r.completionTokens])).toEqual([
      [200, 9, 2],
      [200, 9, 2],
    ]);
  });

  test("a whole messages answer whose content is not a list: the provider's 502 in the chat envelope, accounted as such", async () => {
    const res = await post("/v1/chat/completions", { model: "odd-msg/msg.fault-odd-shape", messages: [{ role: "user", content: "hi" }] });
    expect(res.status).toBe(502);
    const body = (await res.json()) as { error: { code: string; type: string; message: string } };
    expect(body.error).toMatchObject({ code: "provider_error", type: "server_error" });
    expect(body.error.message).toContain("content is not a list");
    const [row] = await rows("msg.fault-odd-shape");
    expect(row).toMatchObject({ status: 502, errorCode: "provider_error", promptTokens: 30, completionTokens: 5 });
  });
});

test("a request the messages format cannot carry is a 400 in the chat envelope, before the provider is called", async () => {
  const res = await post("/v1/chat/completions", {
    model: "odd-msg/msg.fault-split-tools",
    messages: [
      { role: "user", content: "hi" },
      { role: "assistant", content: null, tool_calls: [null] },
    ],
  });
  expect(res.status).toBe(400);
  expect(((await res.json()) as { error: { param: string; type: string } }).error).toMatchObject({
    param: "messages[1].tool_calls[0]",
    type: "invalid_request_error",
  });
});

describe("the provider's refusals in the caller's envelope", () => {
  test("a messages provider's 400 is the chat caller's 400 with its message; a chat provider's 429 the Responses caller's, with its wait", async () => {
    const refused = await post("/v1/chat/completions", { model: "odd-msg/msg.fault-refuses", messages: [{ role: "user", content: "hi" }] });
    expect(refused.status).toBe(400);
    const body = (await refused.json()) as { error: { message: string; type: string; code: string } };
    expect(body.error).toMatchObject({ type: "invalid_request_error", code: "provider_error" });
    expect(body.error.message).toContain("roles must alternate");
    const limited = await post("/v1/responses", { model: "odd-chat/chat.fault-limited", input: "hi" });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("7");
    expect(((await limited.json()) as { error: { code: string } }).error.code).toBe("rate_limit_exceeded");
  });
});

test("multi-byte characters split across the provider's chunks arrive whole through the translation", async () => {
  const seen = (await events(await chatStream("odd-msg/msg.fault-split-chars"))) as { choices?: { delta?: { content?: string } }[] }[];
  expect(seen.map((c) => c.choices?.[0]?.delta?.content ?? "").join("")).toBe("Smørrebrød 🥪 ");
});

describe("Responses over a chat provider", () => {
  test("a chat stream cut off before its finish ends the response with response.failed, not silently", async () => {
    const res = await post("/v1/responses", { model: "odd-chat/chat.fault-cut", input: PROMPT, stream: true });
    expect(res.status).toBe(200);
    const seen = (await events(res)) as { type: string; response?: { status: string; error?: { message: string } } }[];
    expect(seen[0]?.type).toBe("response.created");
    const last = seen.at(-1);
    expect(last?.type).toBe("response.failed");
    expect(last?.response?.status).toBe("failed");
    expect(last?.response?.error?.message).toContain("ended before");
    const [row] = await rows("chat.fault-cut");
    expect(row?.promptTokens).toBeGreaterThan(100);
  });

  test("a chat stream longer than the gateway holds of an answer ends the response with response.failed, accounted", async () => {
    const small = await startOddGateway({ GW_MAX_ANSWER_BYTES: String(64 * 1024) });
    try {
      const res = await small.post("/v1/responses", { model: "odd-chat/chat.fault-long-stream", input: "hi", stream: true });
      const seen = (await small.events(res)) as { type: string; response?: { error?: { message: string } } }[];
      expect(seen.at(-1)?.type).toBe("response.failed");
      expect(seen.at(-1)?.response?.error?.message).toContain("grew past 65536 characters");
      expect(seen.some((e) => e.type === "response.completed")).toBe(false);
      // The provider's stream was read to its end, so its own counts are charged.
      expect((await small.rows("chat.fault-long-stream")).map((r) => [r.promptTokens, r.completionTokens])).toEqual([[9, 16000]]);
    } finally {
      await small.stop();
    }
  });
});
