/** A Responses call's needs and size read from its own body, and which targets take it as written. */
import { describe, expect, test } from "bun:test";
import { ApiError } from "../../src/lib/errors.ts";
import { PROVIDER_KINDS_INFO, type ProviderKind } from "../../src/providers/catalog/provider-kinds.ts";
import { adapterFor } from "../../src/providers/registry.ts";
import { targetFor } from "../../src/providers/target.ts";
import { callAdapter } from "../../src/pipeline/call-adapter.ts";
import { TargetUnsuitable } from "../../src/pipeline/fallback.ts";
import { nativeResponses, refuseUnpriceable, responsesNeeds, responsesSize, translatedChat } from "../../src/pipeline/responses-call.ts";
import { testTarget } from "../support/targets.ts";

const target = (kind: ProviderKind) =>
  targetFor({
    info: PROVIDER_KINDS_INFO[kind],
    baseUrl: "https://provider.example.com/v1",
    credentials: { type: "api-key", apiKey: "k" },
    model: "m",
    catalogModel: undefined,
  });

describe("needs", () => {
  test("tools, images and JSON output are read in the Responses API's own names", () => {
    const needs = responsesNeeds({
      model: "m",
      instructions: "Be brief.",
      input: [
        {
          role: "user",
          content: [
            { type: "input_text", text: "What is here?" },
            { type: "input_image", image_url: "https://x/a.png" },
          ],
        },
      ],
      tools: [{ type: "web_search_preview" }],
      text: { format: { type: "json_schema", name: "x", schema: {} } },
      max_output_tokens: 300,
    });
    expect(needs).toMatchObject({ tools: true, vision: true, json: true, maxTokens: 300 });
    expect(needs.promptTokens).toBeGreaterThan(0);
  });

  test("a plain string input needs nothing but its size", () => {
    const needs = responsesNeeds({ model: "m", input: "hello" });
    expect(needs).toMatchObject({ tools: false, vision: false, json: false, maxTokens: null });
  });

  test("the size counts instructions, messages, function calls and their outputs", () => {
    const gpt = testTarget("openai", "gpt-4o");
    const small = responsesSize({ model: "m", input: "hi" }, gpt);
    const large = responsesSize(
      {
        model: "m",
        instructions: "Be brief.",
        input: [
          { role: "user", content: "hi" },
          { type: "function_call", call_id: "c", name: "f", arguments: '{"city":"Paris"}' },
          { type: "function_call_output", call_id: "c", output: "sunny and warm all week" },
        ],
        max_output_tokens: 50,
      },
      gpt,
    );
    expect(small.messages).toHaveLength(1);
    expect(large.messages).toHaveLength(4);
    expect(large.maxTokens).toBe(50);
  });
});

describe("native or translated", () => {
  test("OpenAI's targets take the API as written; other chat vendors and Azure are translated", () => {
    const openai = target("openai");
    expect(nativeResponses(openai, adapterFor(openai.format))).not.toBeNull();
    for (const kind of ["mistral", "azure-openai", "self-hosted", "anthropic"] as const) {
      const t = target(kind);
      expect(nativeResponses(t, adapterFor(t.format))).toBeNull();
    }
    // A sandbox key's OpenAI target is answered natively too, by the simulator: it fails where a live call would.
    const simulated = { ...openai, simulated: true as const };
    expect(nativeResponses(simulated, callAdapter(simulated))).not.toBeNull();
    const simulatedMistral = { ...target("mistral"), simulated: true as const };
    expect(nativeResponses(simulatedMistral, callAdapter(simulatedMistral))).toBeNull();
  });

  test("translation asks for usage on a stream, and refuses stored state with a 400 naming the field", () => {
    expect(translatedChat({ model: "m", input: "hi", stream: true }, target("mistral"), false).stream_options).toEqual({
      include_usage: true,
    });
    const err = (() => {
      try {
        translatedChat({ model: "m", input: "hi", previous_response_id: "resp_1" }, target("mistral"), false);
      } catch (e) {
        return e;
      }
    })() as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(400);
    expect(err.param).toBe("previous_response_id");
  });
});

describe("reasoning effort on a translated call", () => {
  const call = { model: "m", input: "Prove it.", reasoning: { effort: "high" } };

  test("goes as reasoning_effort to a kind whose chat API documents it", () => {
    for (const kind of ["google", "mistral", "xai", "groq", "azure-openai", "openrouter", "fireworks"] as const)
      expect([kind, translatedChat(call, target(kind), false).reasoning_effort]).toEqual([kind, "high"]);
  });

  test("is dropped for a kind whose chat API does not, so a vendor that refuses unknown fields still answers", () => {
    for (const kind of ["cohere", "deepseek", "ai21", "perplexity", "together", "self-hosted", "custom", "anthropic"] as const)
      expect([kind, "reasoning_effort" in translatedChat(call, target(kind), false)]).toEqual([kind, false]);
  });

  test("a reasoning that is not an object, or an effort that is not a string, is a 400 naming it", () => {
    const param = (body: Record<string, unknown>) => {
      try {
        translatedChat(body, target("mistral"), false);
      } catch (e) {
        return (e as ApiError).param;
      }
    };
    expect(param({ model: "m", input: "x", reasoning: "high" })).toBe("reasoning");
    expect(param({ model: "m", input: "x", reasoning: { effort: 3 } })).toBe("reasoning.effort");
  });
});

describe("what a call may spend", () => {
  const gpt = testTarget("openai", "gpt-4o");

  test("continuing stored state reserves the model's whole context as the prompt; a fresh call only what it sends", () => {
    expect(responsesSize({ model: "gpt-4o", input: "more" }, gpt).storedPromptTokens).toBeUndefined();
    expect(responsesSize({ model: "gpt-4o", input: "more", previous_response_id: "resp_1" }, gpt).storedPromptTokens).toBe(
      gpt.catalogModel!.contextWindow,
    );
    expect(responsesSize({ model: "gpt-4o", input: "more", conversation: "conv_1" }, gpt).storedPromptTokens).toBe(
      gpt.catalogModel!.contextWindow,
    );
  });

  test("built-in tools reserve their per-call fee, times max_tool_calls; functions reserve none", () => {
    const search = [{ type: "web_search" }];
    expect(responsesSize({ model: "gpt-4o", input: "x", tools: [{ type: "function", name: "f" }] }, gpt).feeMicros).toBe(0);
    const once = responsesSize({ model: "gpt-4o", input: "x", tools: search }, gpt).feeMicros!;
    expect(once).toBeGreaterThan(0);
    expect(responsesSize({ model: "gpt-4o", input: "x", tools: search, max_tool_calls: 3 }, gpt).feeMicros).toBe(3 * once);
  });

  test("a background response is refused: its answer would arrive unseen, never charged", () => {
    expect(() => refuseUnpriceable({ model: "o3", input: "x", background: true })).toThrow(/background/);
    expect(() => refuseUnpriceable({ model: "o3", input: "x", background: false })).not.toThrow();
  });

  test("a fallback target that cannot carry stored state or built-in tools is unsuitable, not the caller's error", () => {
    expect(() => translatedChat({ model: "m", input: "x", previous_response_id: "resp_1" }, target("mistral"), true)).toThrow(
      TargetUnsuitable,
    );
    expect(() => translatedChat({ model: "m", input: "x", tools: [{ type: "web_search" }] }, target("mistral"), true)).toThrow(
      TargetUnsuitable,
    );
    expect(translatedChat({ model: "m", input: "x" }, target("mistral"), true).messages).toHaveLength(1);
  });
});
