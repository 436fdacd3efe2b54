/** The Vercel AI SDK against the gateway: OpenAI chat and Responses models, Anthropic, OpenAI-compatible; sandbox and live keys. */
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { APICallError, embed, generateObject, generateText, type LanguageModel, Output, stepCountIs, streamText, tool } from "ai";
import { describe, expect, test } from "bun:test";
import { clientGateway, expectProviderTraffic, KEY_MODES, type KeyMode, MODELS, UNKNOWN_KEY } from "./client-gateway.ts";
import { docsArgs, expectProfile, PROMPTS, profileSchema, TOOL_TEXT, ToolLog, weatherArgs } from "./tools-and-schemas.ts";

// The SDK prints a warning for every setting a provider ignores; the suite stays quiet.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

const gw = clientGateway();

/** Each provider package, set up as docs/clients.md tells users to. */
const models = {
  "openai chat": (mode: KeyMode, model: string) => createOpenAI({ baseURL: gw.v1, apiKey: gw.key(mode) }).chat(model),
  "openai responses": (mode: KeyMode, model: string) => createOpenAI({ baseURL: gw.v1, apiKey: gw.key(mode) }).responses(model),
  "openai-compatible": (mode: KeyMode, model: string) =>
    createOpenAICompatible({ name: "gateway", baseURL: gw.v1, apiKey: gw.key(mode), includeUsage: true, supportsStructuredOutputs: true })(
      model,
    ),
  // @ai-sdk/anthropic appends `/messages` to its base URL, so it takes `<gateway>/v1`.
  anthropic: (mode: KeyMode, model: string) => createAnthropic({ baseURL: gw.v1, apiKey: gw.key(mode) })(model),
} satisfies Record<string, (mode: KeyMode, model: string) => LanguageModel>;

const modelFor = {
  "openai chat": MODELS.openai,
  "openai responses": MODELS.openai,
  "openai-compatible": MODELS.openai,
  anthropic: MODELS.messages,
};

function toolSet(log: ToolLog) {
  return {
    get_weather: tool({ description: TOOL_TEXT.get_weather, inputSchema: weatherArgs, execute: async (a) => log.weather(a) }),
    search_docs: tool({ description: TOOL_TEXT.search_docs, inputSchema: docsArgs, execute: async (a) => log.docs(a) }),
  };
}

for (const mode of KEY_MODES) {
  describe(`AI SDK, ${mode} key`, () => {
    for (const [name, make] of Object.entries(models)) {
      const model = (m = modelFor[name as keyof typeof modelFor]) => make(mode, m);
      describe(name, () => {
        test("plain", async () => {
          const r = await generateText({ model: model(), prompt: PROMPTS.plain, maxRetries: 0 });
          expect(r.text.length).toBeGreaterThan(0);
          expect(r.usage.inputTokens).toBeGreaterThan(0);
          expect(r.usage.outputTokens).toBeGreaterThan(0);
        });

        test("streamed", async () => {
          const r = streamText({ model: model(), prompt: PROMPTS.plain, maxRetries: 0 });
          let text = "";
          for await (const piece of r.textStream) text += piece;
          expect(text.length).toBeGreaterThan(0);
          expect(text).toBe(await r.text);
          expect((await r.usage).outputTokens).toBeGreaterThan(0);
          // A stream carries the same answer as a plain call.
          expect(text).toBe((await generateText({ model: model(), prompt: PROMPTS.plain, maxRetries: 0 })).text);
        });

        test("tools: one round trip", async () => {
          const log = new ToolLog();
          const r = await generateText({
            model: model(),
            tools: toolSet(log),
            prompt: PROMPTS.oneTool,
            stopWhen: stepCountIs(5),
            maxRetries: 0,
          });
          log.expectOneTrip(r.text);
          expect(r.steps).toHaveLength(2);
        });

        test("tools: parallel calls in one turn", async () => {
          const log = new ToolLog();
          const r = await generateText({
            model: model(),
            tools: toolSet(log),
            prompt: PROMPTS.parallel,
            stopWhen: stepCountIs(5),
            maxRetries: 0,
          });
          log.expectParallel(r.text);
          expect(r.steps).toHaveLength(2);
          expect(r.steps[0]?.toolCalls).toHaveLength(2);
        });

        test("tools: a two-step loop, streamed", async () => {
          const log = new ToolLog();
          const r = streamText({ model: model(), tools: toolSet(log), prompt: PROMPTS.twoSteps, stopWhen: stepCountIs(6), maxRetries: 0 });
          const text = await r.text;
          log.expectTwoSteps(text);
          expect(await r.steps).toHaveLength(3);
        });

        test("structured output (generateObject, and generateText with Output.object)", async () => {
          const r = await generateObject({ model: model(), schema: profileSchema, prompt: PROMPTS.structured, maxRetries: 0 });
          expectProfile(r.object);
          // AI SDK 7's own way; generateObject still works but is deprecated.
          const t = await generateText({
            model: model(),
            output: Output.object({ schema: profileSchema }),
            prompt: PROMPTS.structured,
            maxRetries: 0,
          });
          expectProfile(t.output);
        });
      });
    }

    test("embeddings (openai and openai-compatible)", async () => {
      const openai = createOpenAI({ baseURL: gw.v1, apiKey: gw.key(mode) });
      const compatible = createOpenAICompatible({ name: "gateway", baseURL: gw.v1, apiKey: gw.key(mode) });
      for (const m of [openai.embedding(MODELS.embedding), compatible.embeddingModel(MODELS.embedding)]) {
        const r = await embed({ model: m, value: PROMPTS.embed, maxRetries: 0 });
        expect(r.embedding.length).toBeGreaterThan(0);
        expect(r.embedding.every((x) => typeof x === "number")).toBe(true);
      }
    });

    for (const cross of [MODELS.crossFormat, MODELS.auto, MODELS.named]) {
      test(`cross-format: ${cross} from the OpenAI chat and Responses models`, async () => {
        for (const make of [models["openai chat"], models["openai responses"]]) {
          const plain = await generateText({ model: make(mode, cross), prompt: PROMPTS.plain, maxRetries: 0 });
          expect(plain.text.length).toBeGreaterThan(0);
          const log = new ToolLog();
          const tools = await generateText({
            model: make(mode, cross),
            tools: toolSet(log),
            prompt: PROMPTS.oneTool,
            stopWhen: stepCountIs(5),
            maxRetries: 0,
          });
          log.expectOneTrip(tools.text);
          const streamed = streamText({ model: make(mode, cross), prompt: PROMPTS.plain, maxRetries: 0 });
          expect((await streamed.text).length).toBeGreaterThan(0);
        }
      });
    }

    test(`cross-format: ${MODELS.namedMessages} from @ai-sdk/anthropic`, async () => {
      const plain = await generateText({ model: models.anthropic(mode, MODELS.namedMessages), prompt: PROMPTS.plain, maxRetries: 0 });
      expect(plain.text.length).toBeGreaterThan(0);
      const log = new ToolLog();
      const r = await generateText({
        model: models.anthropic(mode, MODELS.namedMessages),
        tools: toolSet(log),
        prompt: PROMPTS.oneTool,
        stopWhen: stepCountIs(5),
        maxRetries: 0,
      });
      log.expectOneTrip(r.text);
    });

    test("errors are parsed: /v1/messages serves messages-format models only", async () => {
      const err = await generateText({ model: models.anthropic(mode, MODELS.openai), prompt: PROMPTS.plain, maxRetries: 0 }).catch(
        (e) => e,
      );
      expect(APICallError.isInstance(err)).toBe(true);
      expect(err.statusCode).toBe(400);
      expect(err.message).toContain("/v1/chat/completions");
      expect(JSON.parse(err.responseBody)).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
    });

    test(`no ${mode} call reached a provider it should not`, async () => {
      await expectProviderTraffic(gw, mode);
    });
  });
}

test("errors are parsed: an unknown key is a 401 in each provider package", async () => {
  const bad = [
    createOpenAI({ baseURL: gw.v1, apiKey: UNKNOWN_KEY }).chat(MODELS.openai),
    createOpenAI({ baseURL: gw.v1, apiKey: UNKNOWN_KEY }).responses(MODELS.openai),
    createOpenAICompatible({ name: "gateway", baseURL: gw.v1, apiKey: UNKNOWN_KEY })(MODELS.openai),
    createAnthropic({ baseURL: gw.v1, apiKey: UNKNOWN_KEY })(MODELS.messages),
  ];
  for (const model of bad) {
    const err = await generateText({ model, prompt: PROMPTS.plain, maxRetries: 0 }).catch((e) => e);
    expect(APICallError.isInstance(err)).toBe(true);
    expect(err.statusCode).toBe(401);
  }
});
