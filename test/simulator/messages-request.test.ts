/**
 * The simulator in the messages format: tools with their `input_schema`, `tool_choice`
 * (`any`, `tool`, `none`, `disable_parallel_tool_use`), `tool_result` blocks that end the
 * loop, a JSON schema in `output_config.format` (or, from a chat caller, in the system
 * prompt), `toolu_` ids, and a stream whose blocks
 * rebuild the whole answer, with usage.
 */
import { describe, expect, test } from "bun:test";
import Ajv2020 from "ajv/dist/2020";
import { simulatedMessage, simulatedMessageEvents } from "../../src/simulator/messages-format.ts";
import type { SimulatedMessagesRequest } from "../../src/simulator/messages-request.ts";
import { chatToMessagesRequest } from "../../src/translate/chat-to-messages.ts";

const WEATHER = {
  name: "get_weather",
  description: "Current weather for a city",
  input_schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};
const NOTE = {
  name: "save_note",
  description: "Save a note",
  input_schema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
};

const req = (content: unknown, extra: Partial<SimulatedMessagesRequest> = {}): SimulatedMessagesRequest => ({
  model: "claude-haiku-4-5",
  max_tokens: 256,
  messages: [{ role: "user", content }],
  tools: [NOTE, WEATHER],
  ...extra,
});

type Block = { type: string; id?: string; name?: string; input?: any; text?: string };
const blocks = (r: SimulatedMessagesRequest) => simulatedMessage(r).content as Block[];

describe("tools", () => {
  test("the matching tool with a toolu_ id; parallel calls unless disabled", () => {
    const both = blocks(req("Weather in Paris and Rome?"));
    expect(both.map((b) => [b.type, b.name, b.input.city])).toEqual([
      ["tool_use", "get_weather", "Paris"],
      ["tool_use", "get_weather", "Rome"],
    ]);
    expect(both[0]!.id).toMatch(/^toolu_[A-Za-z0-9]{24}$/);
    expect(blocks(req("Weather in Paris and Rome?", { tool_choice: { type: "auto", disable_parallel_tool_use: true } }))).toHaveLength(1);
  });

  test("tool_choice: none is text, tool names the tool, any calls one", () => {
    expect(blocks(req("Weather in Paris?", { tool_choice: { type: "none" } }))[0]!.type).toBe("text");
    expect(blocks(req("Weather in Paris?", { tool_choice: { type: "tool", name: "save_note" } })).map((b) => b.name)).toEqual([
      "save_note",
    ]);
    expect(blocks(req("hello", { tool_choice: { type: "any" } }))[0]!.type).toBe("tool_use");
  });

  test("a tool_result ends the loop with text that uses it", () => {
    const first = req("Weather in Paris?");
    const call = blocks(first)[0]!;
    const after = simulatedMessage({
      ...first,
      messages: [
        ...first.messages,
        { role: "assistant", content: [call] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: call.id, content: [{ type: "text", text: "rain" }] }] },
      ],
    });
    expect(after.stop_reason).toBe("end_turn");
    expect((after.content as Block[])[0]!.text).toContain("get_weather returned: rain");
    expect(after.id).not.toBe(simulatedMessage(first).id);
  });

  test("server tools without an input_schema are not called", () => {
    expect(blocks(req("search the web", { tools: [{ name: "web_search" }] }))[0]!.type).toBe("text");
  });
});

test("a JSON schema in output_config.format (or the older output_format) is answered with JSON", () => {
  const schema = { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false };
  for (const extra of [{ output_config: { format: { type: "json_schema", schema } } }, { output_format: { type: "json_schema", schema } }])
    expect(Object.keys(JSON.parse(blocks(req("Where is the Louvre?", { tools: undefined, ...extra }))[0]!.text!))).toEqual(["city"]);
});

test("the stream's blocks rebuild the whole answer, with the same usage", () => {
  const r = req("Weather in Paris and Rome?");
  const whole = simulatedMessage(r);
  const rebuilt: Block[] = [];
  const partial: string[] = [];
  let usage = 0;
  for (const { data } of simulatedMessageEvents(r)) {
    const d = data as any;
    if (d.type === "content_block_start") rebuilt[d.index] = { ...d.content_block };
    if (d.type === "content_block_delta") partial[d.index] = (partial[d.index] ?? "") + d.delta.partial_json;
    if (d.type === "content_block_stop") rebuilt[d.index]!.input = JSON.parse(partial[d.index]!);
    if (d.type === "message_delta") usage = d.usage.output_tokens;
  }
  expect(rebuilt).toEqual(whole.content as Block[]);
  expect(usage).toBe((whole.usage as { output_tokens: number }).output_tokens);
});

test("a chat caller's json_schema, translated for a messages model, is followed as the system prompt states it", () => {
  const schema = { type: "object", properties: { city: { type: "string" }, rank: { type: "integer" } }, required: ["city", "rank"] };
  const translated = chatToMessagesRequest({
    model: "claude-haiku-4-5",
    messages: [{ role: "user", content: "Best city for a trip to Japan?" }],
    response_format: { type: "json_schema", json_schema: { name: "pick", schema } },
  } as never);
  const answer = JSON.parse(blocks(translated as never)[0]!.text!);
  expect(new Ajv2020({ strict: false }).validate(schema, answer)).toBe(true);
  const jsonMode = chatToMessagesRequest({
    model: "m",
    messages: [{ role: "user", content: "x" }],
    response_format: { type: "json_object" },
  } as never);
  expect(typeof JSON.parse(blocks(jsonMode as never)[0]!.text!)).toBe("object");
});
