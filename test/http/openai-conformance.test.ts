/**
 * The gateway's OpenAI-style surfaces, answered end to end for a sandbox key (the
 * simulator, and the translations for cross-format models), against OpenAI's published
 * schemas: chat completions and Responses (plain, streamed, tools, structured output),
 * embeddings, the model list and a model, and the gateway's errors.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import Ajv2020 from "ajv/dist/2020";
import { type InProcessGateway, startInProcessGateway } from "../support/in-process-gateway.ts";
import { expectChatStreamConforms, expectConforms, expectResponsesStreamConforms } from "../support/openai-schemas.ts";

let gw: InProcessGateway;
let key: string;

beforeAll(async () => {
  gw = await startInProcessGateway();
  const r = await gw.op({ key: gw.init.keyValue }, "org.service-account.create", { serviceAccountName: "sandbox", keyType: "test" });
  key = r.body.data.apiKey.key;
  // The model list shows the models of the configured providers; a sandbox call never reaches this one.
  await gw.op({ key: gw.init.keyValue }, "provider.create", { provider: "openai", apiKey: "sk-never-used-0000", scope: "organization" });
});
afterAll(() => gw.stop());

const call = (path: string, body?: object, bearer = key) =>
  gw.handle(
    new Request(`${gw.origin}${path}`, {
      method: body ? "POST" : "GET",
      headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
      body: body ? JSON.stringify(body) : undefined,
    }),
  );

const WEATHER = {
  name: "get_weather",
  description: "The current weather in a city",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false },
};
const PERSON = {
  type: "object",
  properties: { name: { type: "string" }, age: { type: "integer" } },
  required: ["name", "age"],
  additionalProperties: false,
};

const personValid = new Ajv2020({ strict: false }).compile(PERSON);

// A model of each wire family: the OpenAI one answered natively, the messages one translated.
for (const model of ["gpt-4o", "claude-haiku-4-5"]) {
  describe(`${model} with a sandbox key`, () => {
    const chatCases: Record<string, object> = {
      plain: { messages: [{ role: "user", content: "hello" }] },
      tools: { messages: [{ role: "user", content: "Weather in Paris?" }], tools: [{ type: "function", function: WEATHER }] },
      "json schema": {
        messages: [{ role: "user", content: "Describe Ada" }],
        response_format: { type: "json_schema", json_schema: { name: "person", schema: PERSON } },
      },
    };
    for (const [name, body] of Object.entries(chatCases)) {
      test(`chat completions, ${name}: plain and streamed conform`, async () => {
        const plain = await call("/v1/chat/completions", { model, ...body });
        expect(plain.status).toBe(200);
        const completion: any = await plain.json();
        expectConforms("CreateChatCompletionResponse", completion);
        // Structured output holds across formats: a messages model follows the schema the translation passes on.
        if ("response_format" in body) expect(personValid(JSON.parse(completion.choices[0].message.content))).toBe(true);
        const stream = await call("/v1/chat/completions", { model, stream: true, stream_options: { include_usage: true }, ...body });
        expectChatStreamConforms(await stream.text());
      });
    }

    const responsesCases: Record<string, object> = {
      plain: { input: "hello" },
      tools: { input: "Weather in Paris?", tools: [{ type: "function", ...WEATHER }] },
      "json schema": { input: "Describe Ada", text: { format: { type: "json_schema", name: "person", schema: PERSON } } },
    };
    for (const [name, body] of Object.entries(responsesCases)) {
      test(`Responses, ${name}: plain and streamed conform`, async () => {
        const plain = await call("/v1/responses", { model, ...body });
        expect(plain.status).toBe(200);
        expectConforms("Response", await plain.json());
        expectResponsesStreamConforms(await (await call("/v1/responses", { model, stream: true, ...body })).text());
      });
    }
  });
}

describe("embeddings, models and errors", () => {
  test("embeddings, as floats and as base64, conform", async () => {
    for (const encoding_format of ["float", "base64"]) {
      const res = await call("/v1/embeddings", { model: "text-embedding-3-small", input: ["a", "b"], encoding_format });
      expect(res.status).toBe(200);
      expectConforms("CreateEmbeddingResponse", await res.json());
    }
  });

  test("the model list and a model conform", async () => {
    const list: any = await (await call("/v1/models")).json();
    expectConforms("ListModelsResponse", list);
    const one = await call(`/v1/models/${encodeURIComponent(list.data[0].id)}`);
    expect(one.status).toBe(200);
    expectConforms("Model", await one.json());
  });

  test("the gateway's errors conform: a bad key, a bad body, an unknown model and path", async () => {
    const answers = [
      await call("/v1/chat/completions", { model: "gpt-4o", messages: [] }, "gw_test_nope"),
      await call("/v1/chat/completions", { model: "gpt-4o" }),
      await call("/v1/responses", { model: "gpt-4o", input: 5 }),
      await call("/v1/embeddings", { model: "text-embedding-3-small" }),
      await call("/v1/models/no-such-model"),
      await call("/v1/nowhere"),
    ];
    for (const res of answers) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expectConforms("ErrorResponse", await res.json());
    }
  });
});
