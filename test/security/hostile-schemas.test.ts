/**
 * A sandbox key's schemas cannot hold the gateway: a `response_format` schema or a
 * tool's parameters asking for fifty million characters, fifty million items or a
 * pattern that expands to a gigabyte held the process for more than 20 s each (the
 * simulator generates synchronously), so one leaked test key could stop every caller.
 * Now each is answered at once, within the simulator's budget (schema-budget.ts).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { MAX_STRING } from "../../src/simulator/schema-budget.ts";
import { type Harness, startHarness } from "./harness.ts";

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h.close();
});

const chat = async (body: Record<string, unknown>) => {
  const res = await h.fetch("/v1/chat/completions", {
    method: "POST",
    headers: { "content-type": "application/json", ...h.sandboxAdminKey.headers },
    body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "Weather in Lisbon?" }], ...body }),
  });
  return { status: res.status, body: (await res.json()) as any };
};

test("a response_format schema asking for a huge string, array and pattern is answered within the budget", async () => {
  const schema = {
    type: "object",
    properties: {
      s: { type: "string", minLength: 50_000_000 },
      list: { type: "array", minItems: 50_000_000, items: { type: "integer" } },
      p: { type: "string", pattern: "((a{1000}){1000}){1000}" },
    },
    required: ["s", "list", "p"],
  };
  const r = await chat({ response_format: { type: "json_schema", json_schema: { name: "x", schema } } });
  expect(r.status).toBe(200);
  const content = JSON.parse(r.body.choices[0].message.content);
  expect(content.s.length).toBe(MAX_STRING);
  expect(content.list.length).toBeLessThanOrEqual(50);
  expect(content.p.length).toBeLessThanOrEqual(MAX_STRING);
});

test("a tool whose parameters ask for the same is called with bounded arguments", async () => {
  const parameters = { type: "object", properties: { city: { type: "string", minLength: 50_000_000 } }, required: ["city"] };
  const r = await chat({
    tools: [{ type: "function", function: { name: "get_weather", description: "weather in a city", parameters } }],
    tool_choice: "required",
  });
  expect(r.status).toBe(200);
  const args = JSON.parse(r.body.choices[0].message.tool_calls[0].function.arguments);
  expect(args.city.length).toBe(MAX_STRING);
});
