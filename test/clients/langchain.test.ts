/** LangChain JS against the gateway: ChatOpenAI with and without the Responses API, ChatAnthropic, OpenAIEmbeddings; sandbox and live keys. */
import { ChatAnthropic } from "@langchain/anthropic";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { type AIMessage, type AIMessageChunk, type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { type StructuredToolInterface, tool } from "@langchain/core/tools";
import { ChatOpenAI, OpenAIEmbeddings } from "@langchain/openai";
import { describe, expect, test } from "bun:test";
import { clientGateway, expectProviderTraffic, KEY_MODES, type KeyMode, MODELS, UNKNOWN_KEY } from "./client-gateway.ts";
import { docsArgs, expectProfile, PROMPTS, profileSchema, TOOL_TEXT, ToolLog, weatherArgs } from "./tools-and-schemas.ts";

const gw = clientGateway();

/** Each chat class, set up as docs/clients.md tells users to. */
const chats = {
  ChatOpenAI: (mode: KeyMode, model: string) =>
    new ChatOpenAI({ model, apiKey: gw.key(mode), configuration: { baseURL: gw.v1 }, maxRetries: 0 }),
  "ChatOpenAI (Responses API)": (mode: KeyMode, model: string) =>
    new ChatOpenAI({ model, apiKey: gw.key(mode), configuration: { baseURL: gw.v1 }, useResponsesApi: true, maxRetries: 0 }),
  // The Anthropic SDK underneath appends `/v1/messages`: the bare origin.
  ChatAnthropic: (mode: KeyMode, model: string) =>
    new ChatAnthropic({ model, apiKey: gw.key(mode), anthropicApiUrl: gw.origin, maxRetries: 0 }),
} satisfies Record<string, (mode: KeyMode, model: string) => BaseChatModel>;

const modelFor = { ChatOpenAI: MODELS.openai, "ChatOpenAI (Responses API)": MODELS.openai, ChatAnthropic: MODELS.messages };

function tools(log: ToolLog): StructuredToolInterface[] {
  return [
    tool(async (a) => log.weather(a), { name: "get_weather", description: TOOL_TEXT.get_weather, schema: weatherArgs }),
    tool(async (a) => log.docs(a), { name: "search_docs", description: TOOL_TEXT.search_docs, schema: docsArgs }),
  ];
}

/** The agent loop LangChain users write: call, run the tools asked for, answer with their results, until the model answers in text. */
async function toolLoop(chat: BaseChatModel, prompt: string, log: ToolLog, maxTurns = 5): Promise<{ text: string; turns: number }> {
  const offered = tools(log);
  const bound = chat.bindTools!(offered);
  const messages: BaseMessage[] = [new HumanMessage(prompt)];
  for (let turn = 1; turn <= maxTurns; turn++) {
    const reply = (await bound.invoke(messages)) as AIMessage;
    messages.push(reply);
    if (!reply.tool_calls?.length) return { text: reply.text, turns: turn };
    for (const call of reply.tool_calls) {
      const run = offered.find((t) => t.name === call.name);
      if (!run) throw new Error(`the model called an unknown tool ${call.name}`);
      const output = (await run.invoke(call.args as never)) as string;
      messages.push(new ToolMessage({ content: output, tool_call_id: call.id! }));
    }
  }
  throw new Error(`no text answer in ${maxTurns} turns`);
}

for (const mode of KEY_MODES) {
  describe(`LangChain, ${mode} key`, () => {
    for (const [name, make] of Object.entries(chats)) {
      const chat = (m = modelFor[name as keyof typeof modelFor]) => make(mode, m);
      describe(name, () => {
        test("plain", async () => {
          const r = await chat().invoke(PROMPTS.plain);
          expect(r.text.length).toBeGreaterThan(0);
          expect(r.usage_metadata?.input_tokens).toBeGreaterThan(0);
          expect(r.usage_metadata?.output_tokens).toBeGreaterThan(0);
        });

        test("streamed", async () => {
          let text = "";
          let last: AIMessageChunk | undefined;
          for await (const chunk of await chat().stream(PROMPTS.plain)) {
            text += chunk.text;
            last = last ? last.concat(chunk) : chunk;
          }
          expect(text.length).toBeGreaterThan(0);
          expect(text).toBe((await chat().invoke(PROMPTS.plain)).text);
          expect(last?.usage_metadata?.output_tokens).toBeGreaterThan(0);
        });

        test("tools: one round trip", async () => {
          const log = new ToolLog();
          const r = await toolLoop(chat(), PROMPTS.oneTool, log);
          log.expectOneTrip(r.text);
          expect(r.turns).toBe(2);
        });

        test("tools: parallel calls in one turn", async () => {
          const log = new ToolLog();
          const r = await toolLoop(chat(), PROMPTS.parallel, log);
          log.expectParallel(r.text);
          expect(r.turns).toBe(2);
        });

        test("tools: a two-step loop", async () => {
          const log = new ToolLog();
          const r = await toolLoop(chat(), PROMPTS.twoSteps, log);
          log.expectTwoSteps(r.text);
          expect(r.turns).toBe(3);
        });

        test("structured output (withStructuredOutput)", async () => {
          expectProfile(await chat().withStructuredOutput(profileSchema).invoke(PROMPTS.structured));
        });
      });
    }

    test("embeddings (OpenAIEmbeddings)", async () => {
      const embeddings = new OpenAIEmbeddings({
        model: MODELS.embedding,
        apiKey: gw.key(mode),
        configuration: { baseURL: gw.v1 },
        maxRetries: 0,
      });
      const one = await embeddings.embedQuery(PROMPTS.embed);
      expect(one.length).toBeGreaterThan(0);
      const many = await embeddings.embedDocuments([PROMPTS.embed, PROMPTS.plain]);
      expect(many).toHaveLength(2);
      expect(many[0]).toEqual(one);
    });

    for (const cross of [MODELS.crossFormat, MODELS.auto, MODELS.named]) {
      test(`cross-format: ${cross} from ChatOpenAI, with and without the Responses API`, async () => {
        for (const make of [chats.ChatOpenAI, chats["ChatOpenAI (Responses API)"]]) {
          expect((await make(mode, cross).invoke(PROMPTS.plain)).text.length).toBeGreaterThan(0);
          const log = new ToolLog();
          log.expectOneTrip((await toolLoop(make(mode, cross), PROMPTS.oneTool, log)).text);
          let streamed = "";
          for await (const chunk of await make(mode, cross).stream(PROMPTS.plain)) streamed += chunk.text;
          expect(streamed.length).toBeGreaterThan(0);
        }
      });
    }

    test(`cross-format: ${MODELS.namedMessages} from ChatAnthropic`, async () => {
      expect((await chats.ChatAnthropic(mode, MODELS.namedMessages).invoke(PROMPTS.plain)).text.length).toBeGreaterThan(0);
      const log = new ToolLog();
      log.expectOneTrip((await toolLoop(chats.ChatAnthropic(mode, MODELS.namedMessages), PROMPTS.oneTool, log)).text);
    });

    test(`no ${mode} call reached a provider it should not`, async () => {
      await expectProviderTraffic(gw, mode);
    });
  });
}

test("errors are parsed: an unknown key is a 401 in each chat class and in embeddings", async () => {
  const openai = { apiKey: UNKNOWN_KEY, configuration: { baseURL: gw.v1 }, maxRetries: 0 };
  const calls = [
    () => new ChatOpenAI({ model: MODELS.openai, ...openai }).invoke(PROMPTS.plain),
    () => new ChatOpenAI({ model: MODELS.openai, ...openai, useResponsesApi: true }).invoke(PROMPTS.plain),
    () =>
      new ChatAnthropic({ model: MODELS.messages, apiKey: UNKNOWN_KEY, anthropicApiUrl: gw.origin, maxRetries: 0 }).invoke(PROMPTS.plain),
    () => new OpenAIEmbeddings({ model: MODELS.embedding, ...openai }).embedQuery(PROMPTS.embed),
  ];
  for (const call of calls) {
    const err = await call().catch((e) => e);
    expect(err.status).toBe(401);
  }
});
