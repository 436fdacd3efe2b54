/** The simulator's extended thinking in the messages format: whole, streamed (block numbering with tool calls), billed, and only when enabled. */
import { describe, expect, test } from "bun:test";
import { simulatedMessage, simulatedMessageEvents } from "../../src/simulator/messages-format.ts";
import { simulatedThinking } from "../../src/simulator/thinking-block.ts";

const WEATHER = { name: "get_weather", input_schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } };
const ask = (content: string, extra: object = {}) => ({
  model: "claude-haiku-4-5",
  max_tokens: 2048,
  messages: [{ role: "user", content }],
  ...extra,
});
const THINKING = { thinking: { type: "enabled", budget_tokens: 1024 } };

describe("extended thinking", () => {
  test("only when enabled or adaptive", () => {
    expect(simulatedThinking({}, "ref")).toBeNull();
    expect(simulatedThinking({ thinking: { type: "disabled" } }, "ref")).toBeNull();
    expect(simulatedThinking({ thinking: { type: "adaptive" } }, "ref")?.signature.length).toBeGreaterThan(0);
    expect((simulatedMessage(ask("hello")).content as { type: string }[]).map((b) => b.type)).toEqual(["text"]);
  });

  test("a signed thinking block before the answer, its tokens in output_tokens", () => {
    const without: any = simulatedMessage(ask("hello"));
    const m: any = simulatedMessage(ask("hello", THINKING));
    expect(m.content.map((b: { type: string }) => b.type)).toEqual(["thinking", "text"]);
    expect(m.content[0]).toEqual({ type: "thinking", thinking: expect.any(String), signature: expect.any(String) });
    expect(m.content[1]).toEqual(without.content[0]);
    expect(m.usage.output_tokens).toBeGreaterThan(without.usage.output_tokens);
  });

  test("streamed: thinking deltas and one signature delta at index 0, the tool calls numbered after it", () => {
    const req = ask("What is the weather in Paris and Tokyo?", { ...THINKING, tools: [WEATHER] });
    const whole: any = simulatedMessage(req);
    const events = simulatedMessageEvents(req);
    const starts = events.filter((e) => e.event === "content_block_start").map((e) => [e.data.index, (e.data.content_block as any).type]);
    expect(starts).toEqual([
      [0, "thinking"],
      [1, "tool_use"],
      [2, "tool_use"],
    ]);
    const deltas = events.filter((e) => e.event === "content_block_delta" && e.data.index === 0).map((e) => e.data.delta as any);
    expect(deltas.map((d) => d.type).filter((t, i, all) => all.indexOf(t) === i)).toEqual(["thinking_delta", "signature_delta"]);
    expect(deltas.filter((d) => d.type === "signature_delta")).toEqual([
      { type: "signature_delta", signature: whole.content[0].signature },
    ]);
    expect(deltas.flatMap((d) => (d.type === "thinking_delta" ? [d.thinking] : [])).join("")).toBe(whole.content[0].thinking);
    const end = events.find((e) => e.event === "message_delta")?.data as any;
    expect(end.usage.output_tokens).toBe(whole.usage.output_tokens);
  });
});
