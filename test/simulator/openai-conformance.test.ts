/**
 * The simulator's answers (sandbox keys and the mock provider) against OpenAI's published
 * schemas: chat completions, Responses, embeddings, models and errors, plain, streamed,
 * with tools and with structured output. The mock is checked over HTTP, steering words
 * and its own errors included.
 */
import { describe, expect, test } from "bun:test";
import { openAiError, simulatedChatCompletion, simulatedEmbeddings, simulatedModelList } from "../../src/simulator/openai-format.ts";
import { ResponsesMemory, simulatedResponses } from "../../src/simulator/responses-format.ts";
import { mockPerFile } from "../support/mock-per-file.ts";
import { expectChatStreamConforms, expectConforms, expectResponsesStreamConforms } from "../support/openai-schemas.ts";

const WEATHER = {
  name: "get_weather",
  description: "The current weather in a city",
  parameters: {
    type: "object",
    properties: { city: { type: "string" }, unit: { type: "string", enum: ["celsius", "fahrenheit"] } },
    required: ["city", "unit"],
    additionalProperties: false,
  },
};
const SEARCH = {
  name: "search_docs",
  description: "Search the documentation",
  parameters: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
};
const PERSON = {
  type: "object",
  properties: { name: { type: "string" }, age: { type: "integer" }, tags: { type: "array", items: { type: "string" } } },
  required: ["name", "age", "tags"],
  additionalProperties: false,
};
const ask = (content: string) => [{ role: "user", content }];
const chatTools = [WEATHER, SEARCH].map((f) => ({ type: "function", function: f }));
const responsesTools = [WEATHER, SEARCH].map((f) => ({ type: "function", ...f }));

/** The chat requests every format is checked with: plain, tools (parallel), a tool result, JSON schema, JSON mode. */
const CHAT_CASES: Record<string, object> = {
  plain: { messages: ask("hello there") },
  tools: { messages: ask("What's the weather in Paris and Tokyo?"), tools: chatTools },
  "after a tool result": {
    messages: [
      ...ask("Weather in Paris?"),
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "call_1", content: "sunny, 21 C" },
    ],
    tools: chatTools,
  },
  "json schema": {
    messages: ask("Describe Ada"),
    response_format: { type: "json_schema", json_schema: { name: "person", schema: PERSON } },
  },
  "json mode": { messages: ask("Answer in JSON"), response_format: { type: "json_object" } },
  "cut by max_tokens": { messages: ask("hello"), max_tokens: 3 },
  "n choices with logprobs": { messages: ask("hello there"), n: 3, logprobs: true, top_logprobs: 2 },
  "n choices of tool calls": { messages: ask("What's the weather in Paris and Tokyo?"), tools: chatTools, n: 2, logprobs: true },
};

describe("chat completions", () => {
  for (const [name, body] of Object.entries(CHAT_CASES)) {
    test(`${name}: the completion and every stream chunk conform`, async () => {
      const plain: any = await (await simulatedChatCompletion({ model: "gpt-4o", ...body } as never)).json();
      expectConforms("CreateChatCompletionResponse", plain);
      const stream = await simulatedChatCompletion({
        model: "gpt-4o",
        stream: true,
        stream_options: { include_usage: true },
        ...body,
      } as never);
      const chunks = expectChatStreamConforms(await stream.text());
      expect(chunks.at(-1).usage).toEqual(plain.usage);
    });
  }
});

describe("Responses API", () => {
  const memory = new ResponsesMemory();
  const CASES: Record<string, object> = {
    plain: { input: "hello there" },
    tools: { input: "What's the weather in Paris?", tools: responsesTools, tool_choice: "required", parallel_tool_calls: false },
    "a strict tool and a built-in one": {
      input: "Search the docs",
      tools: [{ ...responsesTools[1], strict: false }, { type: "web_search_preview" }],
    },
    "json schema": { input: "Describe Ada", text: { format: { type: "json_schema", name: "person", schema: PERSON, strict: true } } },
    "cut by max_output_tokens": { input: "hello", max_output_tokens: 2 },
  };
  for (const [name, body] of Object.entries(CASES)) {
    test(`${name}: the response and every stream event conform`, async () => {
      const plain: any = await (await simulatedResponses({ model: "gpt-4o", ...body }, {}, memory, "org_test")).json();
      expectConforms("Response", plain);
      const events = expectResponsesStreamConforms(
        await (await simulatedResponses({ model: "gpt-4o", stream: true, ...body }, {}, memory, "org_test")).text(),
      );
      expect(events[0].type).toBe("response.created");
      // The same answer either way; item ids follow the response's own id, which is new each time.
      const said = (output: { type: string; id?: string }[]) => output.filter((o) => o.type !== "web_search_call").map(({ id, ...o }) => o);
      expect(said(events.at(-1).response.output)).toEqual(said(plain.output));
    });
  }
});

describe("embeddings, models and errors", () => {
  test("embeddings conform as floats and as base64 (the description's float-only model widened, as its README says)", async () => {
    for (const encoding_format of ["float", "base64"])
      expectConforms(
        "CreateEmbeddingResponse",
        await simulatedEmbeddings({ model: "text-embedding-3-small", input: ["a", "b"], dimensions: 8, encoding_format }).json(),
      );
  });

  test("the model list conforms, and so does each model", async () => {
    const list: any = await simulatedModelList(["gpt-4o", "claude-haiku-4-5"]).json();
    expectConforms("ListModelsResponse", list);
    expectConforms("Model", list.data[0]);
  });

  test("the simulator's errors conform to the error response", async () => {
    expectConforms("ErrorResponse", await openAiError(400, "model and input are required").json());
    expectConforms(
      "ErrorResponse",
      await (
        await simulatedResponses({ model: "gpt-4o", input: "x", previous_response_id: "resp_nope" }, {}, new ResponsesMemory(), "org_test")
      ).json(),
    );
  });
});

describe("the mock provider over HTTP", () => {
  const mock = mockPerFile();
  const post = (path: string, body: object) =>
    fetch(`${mock.url}${path}`, {
      method: "POST",
      headers: { authorization: "Bearer k", "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  test("chat, Responses and embeddings, plain and streamed, with a dated model name, conform", async () => {
    const chat = { model: "dated-gpt-4o", messages: ask("What's the weather in Oslo?"), tools: chatTools };
    expectConforms("CreateChatCompletionResponse", await (await post("/v1/chat/completions", chat)).json());
    expectChatStreamConforms(await (await post("/v1/chat/completions", { ...chat, stream: true })).text());
    const responses = { model: "gpt-4o", input: "What's the weather in Oslo?", tools: responsesTools };
    expectConforms("Response", await (await post("/v1/responses", responses)).json());
    expectResponsesStreamConforms(await (await post("/v1/responses", { ...responses, stream: true })).text());
    expectConforms("CreateEmbeddingResponse", await (await post("/v1/embeddings", { model: "text-embedding-3-small", input: "x" })).json());
    expectConforms("ListModelsResponse", await (await fetch(`${mock.url}/v1/models`)).json());
  });

  test("its failures and unknown routes answer with a conforming error response", async () => {
    for (const res of [
      await post("/v1/chat/completions", { model: "fail-503", messages: ask("x") }),
      await post("/v1/chat/completions", { model: "gpt-4o" }),
      await post("/v1/embeddings", { model: "fail-429", input: "x" }),
      await post("/v1/nowhere", {}),
    ]) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expectConforms("ErrorResponse", await res.json());
    }
  });
});
