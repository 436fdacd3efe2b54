/**
 * The official `@anthropic-ai/sdk` client's less common features against the gateway:
 * the stream helper's events for text and streamed tool input, extended thinking with
 * its signature, stop sequences, the request id, and message batches (not offered: a
 * clear 404 in the messages envelope); sandbox and live keys. Plain streaming and header
 * pass-through are in test/e2e/messages.test.ts.
 */
import Anthropic from "@anthropic-ai/sdk";
import { describe, expect, test } from "bun:test";
import { clientGateway, expectProviderTraffic, KEY_MODES, type KeyMode, MODELS } from "./client-gateway.ts";
import { PROMPTS, TOOL_TEXT, weatherJsonSchema } from "./tools-and-schemas.ts";

const gw = clientGateway();
// The Anthropic SDK appends `/v1/messages` itself: the bare origin.
const client = (mode: KeyMode) => new Anthropic({ baseURL: gw.origin, apiKey: gw.key(mode), maxRetries: 0 });
const model = MODELS.messages;
const user = (content: string) => [{ role: "user" as const, content }];
const THINKING = { type: "enabled" as const, budget_tokens: 1024 };
/** A message's blocks, the text ones as their text (the stream helper adds its own fields to them). */
const blocksOf = (content: Anthropic.ContentBlock[]) => content.map((b) => (b.type === "text" ? b.text : b));
const WEATHER_TOOL = {
  name: "get_weather",
  description: TOOL_TEXT.get_weather,
  input_schema: { type: "object" as const, properties: weatherJsonSchema.properties, required: [...weatherJsonSchema.required] },
};

for (const mode of KEY_MODES) {
  describe(`@anthropic-ai/sdk, ${mode} key`, () => {
    test("messages.stream(): text events make the final message, with its usage", async () => {
      const stream = client(mode).messages.stream({ model, max_tokens: 256, messages: user(PROMPTS.plain) });
      let text = "";
      stream.on("text", (delta) => {
        text += delta;
      });
      const final = await stream.finalMessage();
      expect(text.length).toBeGreaterThan(0);
      expect(blocksOf(final.content)).toEqual([text]);
      expect(final.usage.output_tokens).toBeGreaterThan(0);
      expect(await stream.finalText()).toBe(text);
    });

    test("messages.stream(): tool_use input streamed as input_json_delta, inputJson events, the final input parsed", async () => {
      const stream = client(mode).messages.stream({
        model,
        max_tokens: 256,
        tools: [WEATHER_TOOL],
        tool_choice: { type: "any" },
        messages: user(PROMPTS.parallel),
      });
      const partial: string[] = [];
      stream.on("inputJson", (delta) => {
        partial.push(delta);
      });
      const final = await stream.finalMessage();
      const calls = final.content.filter((b) => b.type === "tool_use");
      expect(calls.map((c) => c.input)).toEqual([{ city: "Paris" }, { city: "Tokyo" }]);
      expect(partial.join("")).toBe(calls.map((c) => JSON.stringify(c.input)).join(""));
      expect(final.stop_reason).toBe("tool_use");
    });

    test("extended thinking: a signed thinking block before the answer, whole and streamed alike", async () => {
      const asked = { model, max_tokens: 2048, thinking: THINKING, messages: user(PROMPTS.plain) };
      const plain = await client(mode).messages.create(asked);
      expect(plain.content.map((b) => b.type)).toEqual(["thinking", "text"]);
      const thought = plain.content[0];
      if (thought?.type !== "thinking") throw new Error("no thinking block");
      expect(thought.thinking.length).toBeGreaterThan(0);
      expect(thought.signature.length).toBeGreaterThan(0);

      const stream = client(mode).messages.stream(asked);
      let thinking = "";
      let signature = "";
      stream.on("thinking", (delta) => {
        thinking += delta;
      });
      stream.on("signature", (s) => {
        signature = s;
      });
      const final = await stream.finalMessage();
      expect(blocksOf(final.content)).toEqual(blocksOf(plain.content));
      expect({ thinking, signature }).toEqual({ thinking: thought.thinking, signature: thought.signature });
      // The thinking is billed as output, as the vendor bills it.
      const without = await client(mode).messages.create({ ...asked, thinking: { type: "disabled" } });
      expect(plain.usage.output_tokens).toBeGreaterThan(without.usage.output_tokens);
      expect(final.usage.output_tokens).toBe(plain.usage.output_tokens);
    });

    test("a tool loop with thinking: the signed block sent back in the assistant turn is accepted", async () => {
      const first = await client(mode).messages.create({
        model,
        max_tokens: 2048,
        thinking: THINKING,
        tools: [WEATHER_TOOL],
        messages: user(PROMPTS.oneTool),
      });
      const call = first.content.find((b) => b.type === "tool_use");
      if (!call) throw new Error("no tool call");
      expect(first.content[0]?.type).toBe("thinking");
      const second = await client(mode).messages.create({
        model,
        max_tokens: 2048,
        thinking: THINKING,
        tools: [WEATHER_TOOL],
        messages: [
          ...user(PROMPTS.oneTool),
          { role: "assistant", content: first.content },
          { role: "user", content: [{ type: "tool_result", tool_use_id: call.id, content: "sunny, 24 C" }] },
        ],
      });
      expect(second.stop_reason).toBe("end_turn");
      expect(second.content.find((b) => b.type === "text")).toBeTruthy();
    });

    test("stop_sequences: the answer ends before the sequence, named in stop_reason and stop_sequence, plain and streamed", async () => {
      const whole = await client(mode).messages.create({ model, max_tokens: 256, messages: user(PROMPTS.plain) });
      const text = whole.content[0]?.type === "text" ? whole.content[0].text : "";
      const word = text.split(" ")[4] as string;
      const asked = { model, max_tokens: 256, stop_sequences: [word], messages: user(PROMPTS.plain) };
      const cut = await client(mode).messages.create(asked);
      expect(cut).toMatchObject({ stop_reason: "stop_sequence", stop_sequence: word });
      const cutText = cut.content[0]?.type === "text" ? cut.content[0].text : "x";
      expect(text.startsWith(cutText)).toBe(true);
      expect(cutText).not.toContain(word);
      const streamed = await client(mode).messages.stream(asked).finalMessage();
      expect(streamed).toMatchObject({ stop_reason: "stop_sequence", stop_sequence: word });
      expect(blocksOf(streamed.content)).toEqual([cutText]);
    });

    test("withResponse(): the request-id header is the SDK's _request_id, on answers and on errors", async () => {
      const { data, response, request_id } = await client(mode)
        .messages.create({ model, max_tokens: 64, messages: user(PROMPTS.plain) })
        .withResponse();
      expect(data.type).toBe("message");
      expect(response.headers.get("request-id")).toBeTruthy();
      expect(request_id).toBe(response.headers.get("request-id"));
      const awaited = await client(mode).messages.create({ model, max_tokens: 64, messages: user(PROMPTS.plain) });
      expect(awaited._request_id).toBeTruthy();
      expect(response.headers.get("request-id")).toBe(response.headers.get("x-request-id"));
      const err = await client(mode)
        .messages.create({ model, max_tokens: 0, messages: user(PROMPTS.plain) })
        .catch((e) => e);
      expect(err).toBeInstanceOf(Anthropic.BadRequestError);
      expect(err.requestID).toBeTruthy();
    });

    test("message batches are not offered: a 404 saying why, in the messages envelope", async () => {
      const a = client(mode);
      const refused = await Promise.all([
        a.messages.batches
          .create({ requests: [{ custom_id: "one", params: { model, max_tokens: 16, messages: user(PROMPTS.plain) } }] })
          .catch((e) => e),
        a.messages.batches.retrieve("msgbatch_123").catch((e) => e),
        a.messages.batches
          .list()
          .then((page) => page)
          .catch((e) => e),
      ]);
      for (const err of refused) {
        expect(err).toBeInstanceOf(Anthropic.NotFoundError);
        expect(err.error).toMatchObject({ type: "error", error: { type: "not_found_error" } });
        expect(err.error.error.message).toContain("Message batches are not offered by this gateway");
        expect(err.error.error.message).toContain("POST /v1/messages");
      }
    });

    test(`no ${mode} call reached a provider it should not`, async () => {
      await expectProviderTraffic(gw, mode);
    });
  });
}

describe("@anthropic-ai/sdk, live key: request fields reach the vendor as sent", () => {
  test("cache_control on system and tools, stop_sequences, metadata.user_id, thinking", async () => {
    const sent = {
      model,
      max_tokens: 2048,
      system: [{ type: "text" as const, text: "You answer briefly.", cache_control: { type: "ephemeral" as const } }],
      tools: [{ ...WEATHER_TOOL, cache_control: { type: "ephemeral" as const } }],
      stop_sequences: ["END"],
      metadata: { user_id: "end-user-1" },
      thinking: THINKING,
      messages: user(PROMPTS.plain),
    };
    await client("live").messages.create(sent);
    const seen = (await gw.mock.requests()).at(-1);
    expect(seen?.path).toBe("/v1/messages");
    expect(seen?.body).toMatchObject(sent);
  });
});
