/**
 * The simulator with tools, as a careful model: the best-matching tool, arguments that
 * validate against its schema, `tool_choice` honoured, parallel calls for several asks,
 * one tool turn per step, a text answer from the results that ends the loop, and ids
 * unique per call and turn yet stable for the same request. Streams carry the same calls.
 */
import { describe, expect, test } from "bun:test";
import Ajv2020 from "ajv/dist/2020";
import { simulateChat, type SimulatedChatRequest } from "../../src/simulator/chat-simulator.ts";
import { simulatedChatCompletion } from "../../src/simulator/openai-format.ts";
import { ResponsesMemory, simulatedResponses } from "../../src/simulator/responses-format.ts";
import { sseJson } from "../support/sse-text.ts";

const ajv = new Ajv2020({ strict: false });

const WEATHER = {
  name: "get_weather",
  description: "Current weather for a city",
  parameters: {
    type: "object",
    properties: { city: { type: "string" }, unit: { type: "string", enum: ["celsius", "fahrenheit"] } },
    required: ["city", "unit"],
    additionalProperties: false,
  },
};
const SEARCH = {
  name: "search_docs",
  description: "Search the product documentation",
  parameters: {
    type: "object",
    properties: { query: { type: "string" }, limit: { type: "integer", minimum: 1, maximum: 10 } },
    required: ["query"],
  },
};
const TOOLS = [SEARCH, WEATHER].map((f) => ({ type: "function", function: f }));

const request = (content: string, extra: Partial<SimulatedChatRequest> = {}): SimulatedChatRequest => ({
  model: "gpt-4o",
  messages: [{ role: "user", content }],
  tools: TOOLS,
  ...extra,
});

/** The conversation after the answer's calls, each answered with `result`. */
function withResults(req: SimulatedChatRequest, result: string): SimulatedChatRequest {
  const a = simulateChat(req);
  const calls = a.toolCalls.map((c) => ({ id: `call_${c.ref}`, function: { name: c.name, arguments: c.arguments } }));
  return {
    ...req,
    messages: [
      ...req.messages,
      { role: "assistant", content: null, tool_calls: calls },
      ...calls.map((c) => ({ role: "tool", tool_call_id: c.id, content: result })),
    ],
  };
}

describe("choosing and filling a tool", () => {
  test("the tool whose name and description share the ask's words, with arguments valid for its schema", () => {
    const weather = simulateChat(request("What's the weather in Lisbon?"));
    expect(weather.finishReason).toBe("tool_calls");
    expect(weather.toolCalls.map((c) => c.name)).toEqual(["get_weather"]);
    const args = JSON.parse(weather.toolCalls[0]!.arguments);
    expect(ajv.validate(WEATHER.parameters, args)).toBe(true);
    expect(args.city).toBe("Lisbon");
    const search = simulateChat(request("Search the documentation for streaming"));
    expect(search.toolCalls.map((c) => c.name)).toEqual(["search_docs"]);
    expect(ajv.validate(SEARCH.parameters, JSON.parse(search.toolCalls[0]!.arguments))).toBe(true);
  });

  test("tool_choice: none answers in text, a named tool is called whatever the ask, required calls one", () => {
    expect(simulateChat(request("What's the weather in Lisbon?", { tool_choice: "none" })).toolCalls).toEqual([]);
    const named = simulateChat(
      request("What's the weather in Lisbon?", { tool_choice: { type: "function", function: { name: "search_docs" } } }),
    );
    expect(named.toolCalls.map((c) => c.name)).toEqual(["search_docs"]);
    const required = simulateChat(withResults(request("weather in Oslo", { tool_choice: "required" }), "cold"));
    expect(required.finishReason).toBe("tool_calls");
  });

  test("several asks: parallel calls, one each, unless parallel_tool_calls is false", () => {
    const both = simulateChat(request("What's the weather in Paris and Tokyo?"));
    expect(both.toolCalls.map((c) => [c.name, JSON.parse(c.arguments).city])).toEqual([
      ["get_weather", "Paris"],
      ["get_weather", "Tokyo"],
    ]);
    expect(simulateChat(request("What's the weather in Paris and Tokyo?", { parallel_tool_calls: false })).toolCalls).toHaveLength(1);
  });
});

describe("tool loops end", () => {
  test("after the results the answer is text that uses them, and the loop stops", () => {
    const after = simulateChat(withResults(request("What's the weather in Lisbon?"), "sunny, 24 C"));
    expect(after.finishReason).toBe("stop");
    expect(after.toolCalls).toEqual([]);
    expect(after.text).toContain("get_weather returned: sunny, 24 C");
  });

  test("an ask in steps takes one tool turn per step, then answers", () => {
    const first = request("Search the docs for regions, then get the weather in Oslo");
    expect(simulateChat(first).toolCalls.map((c) => c.name)).toEqual(["search_docs"]);
    const second = withResults(first, "regions: eu, us");
    expect(simulateChat(second).toolCalls.map((c) => c.name)).toEqual(["get_weather"]);
    const third = withResults(second, "cold");
    expect(simulateChat(third).finishReason).toBe("stop");
  });
});

describe("ids", () => {
  test("unique per call and per turn, the same for the same request", () => {
    const first = request("Weather in Paris and Tokyo, then search the docs for weather");
    const a = simulateChat(first);
    expect(simulateChat(first).toolCalls.map((c) => c.ref)).toEqual(a.toolCalls.map((c) => c.ref));
    const b = simulateChat(withResults(first, "mild"));
    const refs = [...a.toolCalls, ...b.toolCalls].map((c) => c.ref);
    expect(refs).toHaveLength(3);
    expect(new Set(refs).size).toBe(3);
    expect(a.ref).not.toBe(b.ref);
  });

  test("the formats' prefixes: call_ in chat, fc_ items with call_ ids in Responses", async () => {
    const chat: any = await (await simulatedChatCompletion(request("weather in Oslo") as never)).json();
    expect(chat.choices[0].message.tool_calls[0].id).toMatch(/^call_[A-Za-z0-9]{24}$/);
    const r: any = await (
      await simulatedResponses(
        { model: "gpt-4o", input: "weather in Oslo", tools: [{ type: "function", ...WEATHER }] },
        {},
        new ResponsesMemory(),
        "org_test",
      )
    ).json();
    expect(r.output[0]).toMatchObject({ type: "function_call", name: "get_weather" });
    expect(r.output[0].id).toMatch(/^fc_/);
    expect(r.output[0].call_id).toMatch(/^call_/);
  });
});

test("a stream carries the same calls as the whole answer, with usage", async () => {
  const body = request("What's the weather in Paris and Tokyo?");
  const plain: any = await (await simulatedChatCompletion(body as never)).json();
  const stream = await simulatedChatCompletion({ ...body, stream: true, stream_options: { include_usage: true } } as never);
  const chunks = sseJson(await stream.text());
  const calls: { id: string; name: string; arguments: string }[] = [];
  for (const c of chunks)
    for (const d of c.choices[0]?.delta?.tool_calls ?? []) {
      calls[d.index] ??= { id: d.id, name: d.function.name, arguments: "" };
      calls[d.index]!.arguments += d.function.arguments;
    }
  expect(calls).toEqual(
    plain.choices[0].message.tool_calls.map((c: any) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments })),
  );
  expect(chunks.at(-1).usage).toEqual(plain.usage);
});
