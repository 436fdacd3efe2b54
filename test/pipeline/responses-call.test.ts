/** A Responses call's needs and size read from its own body, and which targets take it as written. */
import { describe, expect, test } from "bun:test";
import { ApiError } from "../../src/lib/errors.ts";
import { PROVIDER_KINDS_INFO, type ProviderKind } from "../../src/providers/catalog/provider-kinds.ts";
import { adapterFor } from "../../src/providers/registry.ts";
import { targetFor } from "../../src/providers/target.ts";
import { nativeResponses, responsesNeeds, responsesSize, translatedChat } from "../../src/pipeline/responses-call.ts";

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
    const small = responsesSize({ model: "m", input: "hi" });
    const large = responsesSize({
      model: "m",
      instructions: "Be brief.",
      input: [
        { role: "user", content: "hi" },
        { type: "function_call", call_id: "c", name: "f", arguments: '{"city":"Paris"}' },
        { type: "function_call_output", call_id: "c", output: "sunny and warm all week" },
      ],
      max_output_tokens: 50,
    });
    expect(small.messages).toHaveLength(1);
    expect(large.messages).toHaveLength(4);
    expect(large.maxTokens).toBe(50);
  });
});

describe("native or translated", () => {
  test("OpenAI's targets take the API as written; other chat vendors, Azure and the sandbox's simulated targets are translated", () => {
    const openai = target("openai");
    expect(nativeResponses(openai, adapterFor(openai.format))).not.toBeNull();
    for (const kind of ["mistral", "azure-openai", "self-hosted", "anthropic"] as const) {
      const t = target(kind);
      expect(nativeResponses(t, adapterFor(t.format))).toBeNull();
    }
    const simulated = { ...openai, simulated: true as const };
    expect(nativeResponses(simulated, adapterFor(simulated.format))).toBeNull();
  });

  test("translation asks for usage on a stream, and refuses stored state with a 400 naming the field", () => {
    expect(translatedChat({ model: "m", input: "hi", stream: true }).stream_options).toEqual({ include_usage: true });
    const err = (() => {
      try {
        translatedChat({ model: "m", input: "hi", previous_response_id: "resp_1" });
      } catch (e) {
        return e;
      }
    })() as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(400);
    expect(err.param).toBe("previous_response_id");
  });
});
