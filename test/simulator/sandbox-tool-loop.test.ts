/**
 * A multi-step agent on a sandbox key, through the gateway, as an OpenAI-style client
 * runs it on a model of each wire family (the messages one translated both ways): each
 * step gets its tool call, the loop ends in text, and no tool-call id comes back twice,
 * which is what broke agent frameworks when ids followed the prompt's token count.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type InProcessGateway, startInProcessGateway } from "../support/in-process-gateway.ts";

let gw: InProcessGateway;
let key: string;

beforeAll(async () => {
  gw = await startInProcessGateway();
  const r = await gw.op({ key: gw.init.keyValue }, "org.service-account.create", { serviceAccountName: "agent", keyType: "test" });
  key = r.body.data.apiKey.key;
});
afterAll(() => gw.stop());

const TOOLS = [
  {
    name: "search_docs",
    description: "Search the documentation",
    parameters: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
  },
  {
    name: "get_weather",
    description: "Weather in a city",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
].map((f) => ({ type: "function", function: f }));

async function complete(model: string, messages: object[]): Promise<any> {
  const res = await gw.handle(
    new Request(`${gw.origin}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ model, messages, tools: TOOLS }),
    }),
  );
  expect(res.status).toBe(200);
  return ((await res.json()) as any).choices[0];
}

for (const model of ["gpt-4o", "claude-haiku-4-5"]) {
  test(`${model}: two tool steps, then text; every id new`, async () => {
    const messages: object[] = [{ role: "user", content: "Search the docs for regions, then get the weather in Oslo" }];
    const seen: string[] = [];
    const called: string[] = [];
    for (let turn = 0; turn < 5; turn++) {
      const choice = await complete(model, messages);
      if (choice.finish_reason !== "tool_calls") {
        expect(choice.message.content).toContain("get_weather returned: cold");
        break;
      }
      messages.push(choice.message);
      for (const call of choice.message.tool_calls) {
        seen.push(call.id);
        called.push(call.function.name);
        messages.push({ role: "tool", tool_call_id: call.id, content: call.function.name === "get_weather" ? "cold" : "eu, us" });
      }
    }
    expect(called).toEqual(["search_docs", "get_weather"]);
    expect(new Set(seen).size).toBe(seen.length);
  });
}
