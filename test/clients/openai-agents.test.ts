/** The OpenAI Agents SDK for JS against the gateway through setDefaultOpenAIClient, on chat completions and the Responses API; sandbox and live keys. */
import {
  Agent,
  OpenAIProvider,
  Runner,
  setDefaultModelProvider,
  setDefaultOpenAIClient,
  setOpenAIAPI,
  setTracingDisabled,
  tool,
} from "@openai/agents";
import { describe, expect, test } from "bun:test";
import OpenAI from "openai";
import { clientGateway, expectProviderTraffic, KEY_MODES, type KeyMode, MODELS, UNKNOWN_KEY } from "./client-gateway.ts";
import { docsArgs, expectProfile, PROMPTS, profileSchema, TOOL_TEXT, ToolLog, weatherArgs } from "./tools-and-schemas.ts";

// Traces would go to OpenAI's own endpoint; the suite sends nothing outside the gateway.
setTracingDisabled(true);

const gw = clientGateway();

type Api = "chat_completions" | "responses";

/** The whole setup a user does: the gateway as the default client, and which OpenAI API the agents speak. */
function useGateway(mode: KeyMode, api: Api): Runner {
  setDefaultOpenAIClient(new OpenAI({ baseURL: gw.v1, apiKey: gw.key(mode), maxRetries: 0 }));
  setOpenAIAPI(api);
  // Users set the client once at start-up and call `run()`. The SDK's default runner and
  // provider keep the first client they used, so a suite that switches keys starts both afresh;
  // the new provider still takes its client from setDefaultOpenAIClient.
  setDefaultModelProvider(new OpenAIProvider());
  return new Runner();
}

function toolAgent(model: string, log: ToolLog) {
  return new Agent({
    name: "assistant",
    instructions: "Use the tools to answer.",
    model,
    tools: [
      tool({ name: "get_weather", description: TOOL_TEXT.get_weather, parameters: weatherArgs, execute: async (a) => log.weather(a) }),
      tool({ name: "search_docs", description: TOOL_TEXT.search_docs, parameters: docsArgs, execute: async (a) => log.docs(a) }),
    ],
  });
}

const plainAgent = (model: string) => new Agent({ name: "assistant", instructions: "Answer briefly.", model });

for (const mode of KEY_MODES) {
  describe(`OpenAI Agents SDK, ${mode} key`, () => {
    for (const api of ["chat_completions", "responses"] as const) {
      describe(api, () => {
        test("plain", async () => {
          const runner = useGateway(mode, api);
          const r = await runner.run(plainAgent(MODELS.openai), PROMPTS.plain);
          expect(String(r.finalOutput).length).toBeGreaterThan(0);
          expect(r.state.usage.inputTokens).toBeGreaterThan(0);
          expect(r.state.usage.outputTokens).toBeGreaterThan(0);
        });

        test("streamed", async () => {
          const runner = useGateway(mode, api);
          const r = await runner.run(plainAgent(MODELS.openai), PROMPTS.plain, { stream: true });
          let text = "";
          for await (const piece of r.toTextStream()) text += piece;
          await r.completed;
          expect(text.length).toBeGreaterThan(0);
          expect(text).toBe(String(r.finalOutput));
        });

        test("tools: one round trip", async () => {
          const runner = useGateway(mode, api);
          const log = new ToolLog();
          const r = await runner.run(toolAgent(MODELS.openai, log), PROMPTS.oneTool, { maxTurns: 5 });
          log.expectOneTrip(String(r.finalOutput));
        });

        test("tools: parallel calls in one turn", async () => {
          const runner = useGateway(mode, api);
          const log = new ToolLog();
          const r = await runner.run(toolAgent(MODELS.openai, log), PROMPTS.parallel, { maxTurns: 5 });
          log.expectParallel(String(r.finalOutput));
          expect(r.rawResponses).toHaveLength(2);
        });

        test("tools: a two-step loop, streamed", async () => {
          const runner = useGateway(mode, api);
          const log = new ToolLog();
          const r = await runner.run(toolAgent(MODELS.openai, log), PROMPTS.twoSteps, { maxTurns: 5, stream: true });
          for await (const _ of r) {
            // the events themselves are not checked: the loop's outcome is
          }
          await r.completed;
          log.expectTwoSteps(String(r.finalOutput));
        });

        test("structured output (outputType)", async () => {
          const runner = useGateway(mode, api);
          const agent = new Agent({ name: "crm", instructions: "Fill the profile.", model: MODELS.openai, outputType: profileSchema });
          const r = await runner.run(agent, PROMPTS.structured);
          expectProfile(r.finalOutput);
        });

        for (const cross of [MODELS.crossFormat, MODELS.auto, MODELS.named]) {
          test(`cross-format: ${cross}, plain and a two-step tool loop`, async () => {
            const runner = useGateway(mode, api);
            expect(String((await runner.run(plainAgent(cross), PROMPTS.plain)).finalOutput).length).toBeGreaterThan(0);
            const log = new ToolLog();
            // Ids are new on every turn, so the SDK never sees a tool-call id reused.
            const r = await runner.run(toolAgent(cross, log), PROMPTS.twoSteps, { maxTurns: 5 });
            log.expectTwoSteps(String(r.finalOutput));
          });
        }
      });
    }

    test(`no ${mode} call reached a provider it should not`, async () => {
      await expectProviderTraffic(gw, mode);
    });
  });
}

test("errors are parsed: an unknown key is a 401 on both APIs", async () => {
  for (const api of ["chat_completions", "responses"] as const) {
    setDefaultOpenAIClient(new OpenAI({ baseURL: gw.v1, apiKey: UNKNOWN_KEY, maxRetries: 0 }));
    setOpenAIAPI(api);
    setDefaultModelProvider(new OpenAIProvider());
    const err = await new Runner().run(plainAgent(MODELS.openai), PROMPTS.plain).catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(err.status).toBe(401);
  }
});
