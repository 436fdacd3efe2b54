/**
 * The official `openai` JS client's less common features against the gateway, as real
 * applications use them: the stream and parse helpers, several choices, log
 * probabilities, raw responses, embeddings options, the Responses helpers, and the
 * endpoints the gateway does not offer; sandbox and live keys, the OpenAI model and a
 * messages-format model asked for in chat.
 */
import { describe, expect, test } from "bun:test";
import OpenAI from "openai";
import { zodFunction, zodResponseFormat, zodTextFormat } from "openai/helpers/zod";
import { clientGateway, expectProviderTraffic, KEY_MODES, type KeyMode, MODELS } from "./client-gateway.ts";
import { expectProfile, PROMPTS, profileSchema, TOOL_TEXT, weatherArgs, weatherJsonSchema } from "./tools-and-schemas.ts";

const gw = clientGateway();
const client = (mode: KeyMode) => new OpenAI({ baseURL: gw.v1, apiKey: gw.key(mode), maxRetries: 0 });
const user = (content: string) => [{ role: "user" as const, content }];
const WEATHER_TOOL = {
  type: "function" as const,
  function: { name: "get_weather", description: TOOL_TEXT.get_weather, parameters: weatherJsonSchema },
};

for (const mode of KEY_MODES) {
  describe(`openai SDK, ${mode} key`, () => {
    for (const model of [MODELS.openai, MODELS.crossFormat]) {
      describe(model, () => {
        test("chat.completions.parse with zodResponseFormat, plain and streamed", async () => {
          const r = await client(mode).chat.completions.parse({
            model,
            messages: user(PROMPTS.structured),
            response_format: zodResponseFormat(profileSchema, "profile"),
          });
          expectProfile(r.choices[0]?.message.parsed);
          // Streamed, the helper parses the final JSON the same way.
          const streamed = await client(mode)
            .chat.completions.stream({
              model,
              messages: user(PROMPTS.structured),
              response_format: zodResponseFormat(profileSchema, "profile"),
            })
            .finalChatCompletion();
          expect(expectProfile(streamed.choices[0]?.message.parsed)).toEqual(expectProfile(r.choices[0]?.message.parsed));
        });

        test("chat.completions.parse with zodFunction tools: the arguments parsed", async () => {
          const r = await client(mode).chat.completions.parse({
            model,
            messages: user(PROMPTS.oneTool),
            tools: [zodFunction({ name: "get_weather", description: TOOL_TEXT.get_weather, parameters: weatherArgs })],
          });
          const call = r.choices[0]?.message.tool_calls?.[0];
          expect(call?.type === "function" ? call.function.parsed_arguments : null).toEqual({ city: "Paris" });
        });

        test("chat.completions.stream(): content.delta events make the final completion, with its usage", async () => {
          const stream = client(mode).chat.completions.stream({
            model,
            messages: user(PROMPTS.plain),
            stream_options: { include_usage: true },
          });
          let deltas = "";
          let done = "";
          stream.on("content.delta", (e) => {
            deltas += e.delta;
          });
          stream.on("content.done", (e) => {
            done = e.content;
          });
          const final = await stream.finalChatCompletion();
          expect(deltas.length).toBeGreaterThan(0);
          expect(final.choices[0]?.message.content).toBe(deltas);
          expect(done).toBe(deltas);
          expect(final.usage?.completion_tokens).toBeGreaterThan(0);
        });

        test("chat.completions.stream(): parallel tool calls, each ending with tool_calls.function.arguments.done", async () => {
          const stream = client(mode).chat.completions.stream({
            model,
            messages: user(PROMPTS.parallel),
            tools: [WEATHER_TOOL],
            parallel_tool_calls: true,
          });
          const done: { index: number; name: string; args: unknown }[] = [];
          stream.on("tool_calls.function.arguments.done", (e) => {
            done.push({ index: e.index, name: e.name, args: JSON.parse(e.arguments) });
          });
          const final = await stream.finalChatCompletion();
          expect(done).toEqual([
            { index: 0, name: "get_weather", args: { city: "Paris" } },
            { index: 1, name: "get_weather", args: { city: "Tokyo" } },
          ]);
          const calls = final.choices[0]?.message.tool_calls ?? [];
          expect(calls.map((c) => (c.type === "function" ? JSON.parse(c.function.arguments) : null))).toEqual([
            { city: "Paris" },
            { city: "Tokyo" },
          ]);
          expect(new Set(calls.map((c) => c.id)).size).toBe(2);
          expect(final.choices[0]?.finish_reason).toBe("tool_calls");
        });

        test("responses.stream(): text deltas make the final response; responses.parse with zodTextFormat", async () => {
          const stream = client(mode).responses.stream({ model, input: PROMPTS.plain });
          let deltas = "";
          stream.on("response.output_text.delta", (e) => {
            deltas += e.delta;
          });
          const final = await stream.finalResponse();
          expect(deltas.length).toBeGreaterThan(0);
          expect(final.output_text).toBe(deltas);
          expect(final.status).toBe("completed");
          const parsed = await client(mode).responses.parse({
            model,
            input: PROMPTS.structured,
            text: { format: zodTextFormat(profileSchema, "profile") },
          });
          expectProfile(parsed.output_parsed);
        });

        test("stop: the answer ends before the sequence, plain and streamed", async () => {
          const whole =
            (await client(mode).chat.completions.create({ model, messages: user(PROMPTS.plain) })).choices[0]?.message.content ?? "";
          const word = whole.split(" ")[4] as string;
          const asked = { model, messages: user(PROMPTS.plain), stop: [word] };
          const cut = (await client(mode).chat.completions.create(asked)).choices[0];
          expect(cut?.finish_reason).toBe("stop");
          expect(whole.startsWith(cut?.message.content ?? "x")).toBe(true);
          expect(cut?.message.content).not.toContain(word);
          const streamed = await client(mode).chat.completions.stream(asked).finalChatCompletion();
          expect(streamed.choices[0]?.message.content).toBe(cut?.message.content ?? "x");
        });

        test("withResponse(): the x-request-id header is the SDK's _request_id, on answers and on errors", async () => {
          const { data, response, request_id } = await client(mode)
            .chat.completions.create({ model, messages: user(PROMPTS.plain) })
            .withResponse();
          expect(data.object).toBe("chat.completion");
          expect(response.headers.get("x-request-id")).toBeTruthy();
          expect(request_id).toBe(response.headers.get("x-request-id"));
          const awaited = await client(mode).chat.completions.create({ model, messages: user(PROMPTS.plain) });
          expect(awaited._request_id).toBeTruthy();
          const err = await client(mode)
            .chat.completions.create({ model, messages: user(PROMPTS.plain), temperature: 9 })
            .catch((e) => e);
          expect(err).toBeInstanceOf(OpenAI.BadRequestError);
          expect(err.requestID).toBeTruthy();
        });
      });
    }

    test("n: 2 gives two choices, plain and streamed, and the usage counts both", async () => {
      const one = await client(mode).chat.completions.create({ model: MODELS.openai, messages: user(PROMPTS.plain) });
      const two = await client(mode).chat.completions.create({ model: MODELS.openai, messages: user(PROMPTS.plain), n: 2 });
      expect(two.choices.map((c) => c.index)).toEqual([0, 1]);
      for (const c of two.choices) expect(c.message.content).toBe(one.choices[0]?.message.content ?? "");
      expect(two.usage?.completion_tokens).toBe(2 * (one.usage?.completion_tokens ?? 0));
      const streamed = await client(mode)
        .chat.completions.stream({ model: MODELS.openai, messages: user(PROMPTS.plain), n: 2, stream_options: { include_usage: true } })
        .finalChatCompletion();
      expect(streamed.choices.map((c) => [c.index, c.message.content])).toEqual(two.choices.map((c) => [c.index, c.message.content]));
      expect(streamed.usage?.completion_tokens).toBe(two.usage?.completion_tokens);
    });

    test("n: 2 for a messages-format model is a 400 naming n (that format answers one choice)", async () => {
      const err = await client(mode)
        .chat.completions.create({ model: MODELS.crossFormat, messages: user(PROMPTS.plain), n: 2 })
        .catch((e) => e);
      expect(err).toBeInstanceOf(OpenAI.BadRequestError);
      expect(err.message).toContain("n must be 1");
    });

    test("logprobs with top_logprobs, plain and streamed, one entry a token of the answer", async () => {
      const asked = { model: MODELS.openai, messages: user(PROMPTS.plain), logprobs: true, top_logprobs: 2 };
      const plain = (await client(mode).chat.completions.create(asked)).choices[0];
      const content = plain?.logprobs?.content ?? [];
      expect(content.map((t) => t.token).join("")).toBe(plain?.message.content ?? "x");
      for (const t of content) {
        expect(t.top_logprobs).toHaveLength(2);
        expect(t.top_logprobs[0]?.token).toBe(t.token);
        expect(t.logprob).toBeLessThanOrEqual(0);
      }
      const stream = client(mode).chat.completions.stream(asked);
      const tokens: string[] = [];
      stream.on("logprobs.content.delta", (e) => {
        tokens.push(...e.content.map((t) => t.token));
      });
      const final = await stream.finalChatCompletion();
      expect(tokens.join("")).toBe(final.choices[0]?.message.content ?? "x");
      expect(final.choices[0]?.logprobs?.content).toEqual(content);
    });

    test("embeddings: dimensions through the SDK's own base64 decoding, and base64 asked for explicitly", async () => {
      const floats = await client(mode).embeddings.create({ model: MODELS.embedding, input: PROMPTS.embed, dimensions: 8 });
      const vector = floats.data[0]?.embedding ?? [];
      expect(vector).toHaveLength(8);
      const b64 = await client(mode).embeddings.create({
        model: MODELS.embedding,
        input: PROMPTS.embed,
        dimensions: 8,
        encoding_format: "base64",
      });
      const raw = Buffer.from(b64.data[0]?.embedding as unknown as string, "base64");
      expect(Array.from(new Float32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4))).toEqual(vector);
    });

    test("models.list() iterates its pages", async () => {
      const ids: string[] = [];
      for await (const m of client(mode).models.list()) ids.push(m.id);
      expect(ids).toContain(MODELS.openai);
      expect(ids).toContain(MODELS.crossFormat);
    });

    test("endpoints the gateway does not offer are a 404 saying why, in the OpenAI envelope", async () => {
      const o = client(mode);
      const refused = await Promise.all([
        o.batches.create({ input_file_id: "file-x", endpoint: "/v1/chat/completions", completion_window: "24h" }).catch((e) => e),
        o.files.list().catch((e) => e),
        o.responses.retrieve("resp_123").catch((e) => e),
        o.completions.create({ model: MODELS.openai, prompt: "x" }).catch((e) => e),
        o.chat.completions.retrieve("chatcmpl-123").catch((e) => e),
        o.conversations.create({}).catch((e) => e),
      ]);
      const words = [
        "Batch API is not offered",
        "File uploads are not offered",
        "Stored responses cannot be retrieved",
        "use POST /v1/chat/completions",
        "Stored chat completions cannot be retrieved",
        "Conversation objects are not offered",
      ];
      refused.forEach((err, i) => {
        expect(err).toBeInstanceOf(OpenAI.NotFoundError);
        expect(err.error).toMatchObject({ type: "not_found_error", code: "not_found" });
        expect(err.error.message).toContain(words[i]);
      });
    });

    test(`no ${mode} call reached a provider it should not`, async () => {
      await expectProviderTraffic(gw, mode);
    });
  });
}

describe("openai SDK, live key: request fields reach the provider as sent", () => {
  test("seed, user, metadata, store, max_completion_tokens, n, logprobs and top_logprobs", async () => {
    const sent = {
      model: MODELS.openai,
      messages: user(PROMPTS.plain),
      seed: 7,
      user: "end-user-1",
      metadata: { feature: "compat" },
      store: false,
      max_completion_tokens: 64,
      n: 2,
      logprobs: true,
      top_logprobs: 1,
    };
    await client("live").chat.completions.create(sent);
    const seen = (await gw.mock.requests()).at(-1);
    const { messages: _m, ...fields } = sent;
    expect(seen?.body).toMatchObject({ ...fields, model: MODELS.openai });
  });
});
