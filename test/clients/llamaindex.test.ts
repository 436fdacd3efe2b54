/**
 * LlamaIndex TS against the gateway: its OpenAI and OpenAIResponses LLMs, the tool loop of
 * its agent workflow (`agent()` from @llamaindex/workflow), OpenAIEmbedding; sandbox and
 * live keys. (The older OpenAIAgent never ends a loop on OpenAIResponses, whose every answer
 * carries a `toolCall` list, empty or not: a LlamaIndex limit, whoever answers.)
 */
import type { ChatMessage, ToolCallLLM } from "@llamaindex/core/llms";
import { FunctionTool } from "@llamaindex/core/tools";
import { OpenAI, OpenAIEmbedding, OpenAIResponses } from "@llamaindex/openai";
import { agent } from "@llamaindex/workflow";
import { describe, expect, test } from "bun:test";
import { z } from "zod";
import { clientGateway, expectProviderTraffic, KEY_MODES, type KeyMode, MODELS, UNKNOWN_KEY } from "./client-gateway.ts";
import { docsArgs, expectProfile, PROMPTS, profileSchema, TOOL_TEXT, ToolLog, weatherArgs } from "./tools-and-schemas.ts";

const gw = clientGateway();

/** Each LLM class, set up as docs/clients.md tells users to. */
const openaiLlm = (mode: KeyMode, model: string) => new OpenAI({ model, apiKey: gw.key(mode), baseURL: gw.v1, maxRetries: 0 });
const responsesLlm = (mode: KeyMode, model: string) =>
  new OpenAIResponses({ model, apiKey: gw.key(mode), baseURL: gw.v1, maxRetries: 0, trackPreviousResponses: false });
const llms: Record<string, (mode: KeyMode, model: string) => ToolCallLLM> = { OpenAI: openaiLlm, OpenAIResponses: responsesLlm };

function tools(log: ToolLog) {
  return [
    FunctionTool.from((a: { city: string }) => log.weather(a), {
      name: "get_weather",
      description: TOOL_TEXT.get_weather,
      parameters: weatherArgs,
    }),
    FunctionTool.from((a: { query: string }) => log.docs(a), {
      name: "search_docs",
      description: TOOL_TEXT.search_docs,
      parameters: docsArgs,
    }),
  ];
}

const user = (content: string): ChatMessage[] => [{ role: "user", content }];

/**
 * The text of a streamed answer. OpenAIResponses yields a chunk for every Responses event and
 * repeats the last text delta on the events after it (done, completed), against any server;
 * only its text-delta chunks carry new text.
 */
async function streamedText(llm: ToolCallLLM): Promise<string> {
  let text = "";
  for await (const chunk of await llm.chat({ messages: user(PROMPTS.plain), stream: true })) {
    const type = (chunk.raw as { type?: string } | null)?.type;
    if (type === undefined || type === "response.output_text.delta") text += chunk.delta;
  }
  return text;
}

for (const mode of KEY_MODES) {
  describe(`LlamaIndex, ${mode} key`, () => {
    for (const [name, make] of Object.entries(llms)) {
      const llm = (model: string = MODELS.openai) => make(mode, model);
      describe(name, () => {
        test("plain", async () => {
          const r = await llm().chat({ messages: user(PROMPTS.plain) });
          expect(String(r.message.content).length).toBeGreaterThan(0);
        });

        test("streamed: the same text as a plain call", async () => {
          const plain = String((await llm().chat({ messages: user(PROMPTS.plain) })).message.content);
          expect(await streamedText(llm())).toBe(plain);
        });

        test("tools: one round trip (agent)", async () => {
          const log = new ToolLog();
          const r = await agent({ llm: llm(), tools: tools(log) }).run(PROMPTS.oneTool);
          log.expectOneTrip(String(r.data.result));
        });

        test("tools: parallel calls in one turn (agent)", async () => {
          const log = new ToolLog();
          const r = await agent({ llm: llm(), tools: tools(log) }).run(PROMPTS.parallel);
          log.expectParallel(String(r.data.result));
        });

        test("tools: a two-step loop (agent)", async () => {
          const log = new ToolLog();
          const r = await agent({ llm: llm(), tools: tools(log) }).run(PROMPTS.twoSteps);
          log.expectTwoSteps(String(r.data.result));
        });

        if (name === "OpenAI") {
          test("structured output (responseFormat, on the LLM and on the agent)", async () => {
            const r = await llm().chat({ messages: user(PROMPTS.structured), responseFormat: profileSchema });
            expectProfile(JSON.parse(String(r.message.content)));
            const fromAgent = await agent({ llm: llm(), tools: [] }).run(PROMPTS.structured, { responseFormat: profileSchema });
            expectProfile(fromAgent.data.object);
          });
        } else {
          // OpenAIResponses does not read `responseFormat`; it takes the Responses API's own `text.format`.
          test("structured output (text.format in additionalChatOptions)", async () => {
            const format = { type: "json_schema" as const, name: "profile", schema: z.toJSONSchema(profileSchema), strict: true };
            const r = await responsesLlm(mode, MODELS.openai).chat({
              messages: user(PROMPTS.structured),
              additionalChatOptions: { text: { format } },
            });
            expectProfile(JSON.parse(String(r.message.content)));
          });
        }

        for (const cross of [MODELS.crossFormat, MODELS.auto, MODELS.named]) {
          test(`cross-format: ${cross}, plain, streamed and a tool round trip`, async () => {
            expect(String((await llm(cross).chat({ messages: user(PROMPTS.plain) })).message.content).length).toBeGreaterThan(0);
            expect((await streamedText(llm(cross))).length).toBeGreaterThan(0);
            const log = new ToolLog();
            const r = await agent({ llm: llm(cross), tools: tools(log) }).run(PROMPTS.oneTool);
            log.expectOneTrip(String(r.data.result));
          });
        }
      });
    }

    test("embeddings (OpenAIEmbedding)", async () => {
      const embedding = new OpenAIEmbedding({ model: MODELS.embedding, apiKey: gw.key(mode), baseURL: gw.v1, maxRetries: 0 });
      const one = await embedding.getTextEmbedding(PROMPTS.embed);
      expect(one.length).toBeGreaterThan(0);
      const many = await embedding.getTextEmbeddings([PROMPTS.embed, PROMPTS.plain]);
      expect(many).toHaveLength(2);
      expect(many[0]).toEqual(one);
    });

    test(`no ${mode} call reached a provider it should not`, async () => {
      await expectProviderTraffic(gw, mode);
    });
  });
}

test("errors are parsed: an unknown key is a 401 in both LLM classes and in embeddings", async () => {
  const base = { apiKey: UNKNOWN_KEY, baseURL: gw.v1, maxRetries: 0 };
  const calls = [
    () => new OpenAI({ model: MODELS.openai, ...base }).chat({ messages: user(PROMPTS.plain) }),
    () => new OpenAIResponses({ model: MODELS.openai, ...base }).chat({ messages: user(PROMPTS.plain) }),
    () => new OpenAIEmbedding({ model: MODELS.embedding, ...base }).getTextEmbedding(PROMPTS.embed),
  ];
  for (const call of calls) {
    const err = await call().catch((e) => e);
    expect(err.status).toBe(401);
  }
});
