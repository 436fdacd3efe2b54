/** The mock's Responses API and token count, as the official clients read them. */
import { afterAll, expect, test } from "bun:test";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { startMockProvider } from "../../src/mock-provider/server.ts";

const mock = startMockProvider({ host: "127.0.0.1", port: 0, latencyMs: 0 });
afterAll(() => mock.stop(true));
const openai = new OpenAI({ baseURL: `http://127.0.0.1:${mock.port}/v1`, apiKey: "mock-key", maxRetries: 0 });
const anthropic = new Anthropic({ baseURL: `http://127.0.0.1:${mock.port}`, apiKey: "mock-key", maxRetries: 0 });

test("responses.create: a plain answer with usage counted by the tokenizer", async () => {
  const r = await openai.responses.create({ model: "gpt-4o", instructions: "Be brief.", input: "Say hello" });
  expect(r.object).toBe("response");
  expect(r.status).toBe("completed");
  expect(r.model).toBe("gpt-4o");
  expect(r.output_text.length).toBeGreaterThan(0);
  expect(r.usage!.input_tokens).toBeGreaterThan(0);
  expect(r.usage!.total_tokens).toBe(r.usage!.input_tokens + r.usage!.output_tokens);
});

test("responses streamed: the deltas add up to the final text; a tool is called when given", async () => {
  const stream = openai.responses.stream({ model: "gpt-4o", input: "Say hello" });
  let text = "";
  stream.on("response.output_text.delta", (e) => (text += e.delta));
  const final = await stream.finalResponse();
  expect(final.output_text).toBe(text);
  const tool = await openai.responses.create({
    model: "gpt-4o",
    input: "Weather in Oslo?",
    tools: [{ type: "function", name: "get_weather", parameters: { type: "object", properties: {} }, strict: false }],
  });
  expect(tool.output[0]).toMatchObject({ type: "function_call", name: "get_weather" });
});

test("steering words work on the Responses API too", async () => {
  const swapped = await openai.responses.create({ model: "swap-gpt-4o-mini", input: "x" });
  expect(swapped.model).toBe("gpt-4o-mini");
  const failed = await openai.responses.create({ model: "fail-503", input: "x" }).then(
    () => null,
    (err: unknown) => err,
  );
  expect(failed).toMatchObject({ status: 503 });
});

test("messages.countTokens: the system prompt, the messages and the tools count", async () => {
  const small = await anthropic.messages.countTokens({ model: "claude-sonnet-4-5", messages: [{ role: "user", content: "Hello" }] });
  const more = await anthropic.messages.countTokens({
    model: "claude-sonnet-4-5",
    system: "You are a careful assistant who answers in French.",
    messages: [{ role: "user", content: "Hello" }],
    tools: [{ name: "lookup", input_schema: { type: "object", properties: {} } }],
  });
  expect(small.input_tokens).toBeGreaterThan(0);
  expect(more.input_tokens).toBeGreaterThan(small.input_tokens + 10);
});

test("stored state: previous_response_id continues a response the mock gave, streamed or not; an unknown id is 404", async () => {
  const first = await openai.responses.create({ model: "gpt-4o", input: "Remember 42." });
  const next = await openai.responses.create({ model: "gpt-4o", input: "And then?", previous_response_id: first.id });
  expect(next.status).toBe("completed");
  expect(next.usage!.input_tokens).toBeGreaterThan(first.usage!.input_tokens);
  const streamed = await openai.responses.stream({ model: "gpt-4o", input: "Go on." }).finalResponse();
  const after = await openai.responses.create({ model: "gpt-4o", input: "More?", previous_response_id: streamed.id });
  expect(after.status).toBe("completed");
  const err = await openai.responses.create({ model: "gpt-4o", input: "x", previous_response_id: "resp_unknown" }).catch((e) => e);
  expect(err).toBeInstanceOf(OpenAI.NotFoundError);
});

test("built-in tools are accepted; web search shows its call item before the message, as OpenAI's does", async () => {
  const r = await openai.responses.create({ model: "gpt-4o", input: "Search the web", tools: [{ type: "web_search_preview" }] });
  expect(r.status).toBe("completed");
  expect(r.output.map((o) => o.type)).toEqual(["web_search_call", "message"]);
  const files = await openai.responses.create({
    model: "gpt-4o",
    input: "Look it up",
    tools: [{ type: "file_search", vector_store_ids: ["vs_1"] }],
  });
  expect(files.output.map((o) => o.type)).toEqual(["message"]);
});

test("store: false keeps nothing to continue", async () => {
  const r = await openai.responses.create({ model: "gpt-4o", input: "Forget me", store: false });
  const err = await openai.responses.create({ model: "gpt-4o", input: "x", previous_response_id: r.id }).catch((e) => e);
  expect(err).toBeInstanceOf(OpenAI.NotFoundError);
});
