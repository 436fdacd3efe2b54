/** Stop sequences on simulated answers: cut before the earliest one, named in the messages format, and left alone when absent. */
import { expect, test } from "bun:test";
import { simulateChat } from "../../src/simulator/chat-simulator.ts";
import { simulatedMessage } from "../../src/simulator/messages-format.ts";
import { cutAtStop } from "../../src/simulator/stop-sequences.ts";

test("the earliest sequence the text contains wins, and is not part of the answer", () => {
  expect(cutAtStop("alpha beta gamma", ["gamma", "beta"])).toEqual({ text: "alpha ", sequence: "beta" });
  expect(cutAtStop("alpha beta", "beta")).toEqual({ text: "alpha ", sequence: "beta" });
  expect(cutAtStop("alpha beta", ["zeta", "", 7])).toBeNull();
  expect(cutAtStop("alpha beta", undefined)).toBeNull();
});

test("a chat answer stops before the sequence with finish stop and fewer tokens; absent, the whole answer", () => {
  const req = { model: "gpt-4o", messages: [{ role: "user", content: "hello" }] };
  const whole = simulateChat(req);
  const word = whole.text.split(" ")[5] as string;
  const cut = simulateChat({ ...req, stop: [word] });
  expect(whole.text.startsWith(cut.text)).toBe(true);
  expect(cut.text).not.toContain(word);
  expect(cut).toMatchObject({ finishReason: "stop", stopSequence: word });
  expect(cut.completionTokens).toBeLessThan(whole.completionTokens);
  expect(simulateChat({ ...req, stop: ["not in the answer"] }).text).toBe(whole.text);
});

test("the messages format names the sequence in stop_reason and stop_sequence", () => {
  const req = { model: "claude-haiku-4-5", max_tokens: 256, messages: [{ role: "user", content: "hello" }] };
  const whole: any = simulatedMessage(req);
  const word = (whole.content[0].text as string).split(" ")[4] as string;
  const cut: any = simulatedMessage({ ...req, stop_sequences: [word] });
  expect(cut).toMatchObject({ stop_reason: "stop_sequence", stop_sequence: word });
  expect(whole).toMatchObject({ stop_reason: "end_turn", stop_sequence: null });
});
