/**
 * SPEC "Resources and their fields": the lines no other test holds. `created` is Unix
 * time in seconds wherever the gateway answers a chat completion (natively, translated
 * from the messages format, streamed, through routing), and a response through
 * `ai.proxy` is the provider's own, unmodified but for the added `estimated_cost`.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { InitResult, RunningMock } from "../support/gateway-process.ts";
import type { GatewayUnderTest } from "../support/in-process.ts";
import { startStack, stopStack } from "../support/stack.ts";

let gw: GatewayUnderTest;
let mock: RunningMock;
let org: InitResult;
const OPENAI_KEY = "sk-spec-openai-0123456789";

beforeAll(async () => {
  ({ mock, org, gw } = await startStack());
  for (const [provider, apiKey, baseUrl] of [
    ["openai", OPENAI_KEY, `${mock.url}/v1`],
    ["anthropic", "sk-ant-spec-0123456789", mock.url],
  ] as const)
    expect((await gw.op(org.apiKey, "provider.create", { provider, apiKey, baseUrl, scope: "organization" })).status).toBe(200);
});

afterAll(() => stopStack({ gw, mock }));

const hi = [{ role: "user", content: "hi" }];
const post = (path: string, body: object, headers: Record<string, string> = {}) =>
  fetch(`${gw.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${org.apiKey}`, "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

/** Unix seconds of about now: not milliseconds, not a fixed placeholder. */
function expectUnixSecondsNow(what: string, created: unknown): void {
  expect([what, Number.isInteger(created)]).toEqual([what, true]);
  expect([what, Math.abs((created as number) - Date.now() / 1000) < 600]).toEqual([what, true]);
}

const chunksOf = (sse: string): any[] =>
  sse
    .split("\n")
    .filter((l) => l.startsWith("data: ") && l !== "data: [DONE]")
    .map((l) => JSON.parse(l.slice(6)));

test("chat completion `created` is Unix seconds: native, translated, streamed and routed answers", async () => {
  for (const model of ["gpt-4o", "claude-sonnet-4-5", "gateway/auto"]) {
    const plain = (await (await post("/v1/chat/completions", { model, messages: hi })).json()) as any;
    expect([model, plain.object]).toEqual([model, "chat.completion"]);
    expectUnixSecondsNow(`${model} plain`, plain.created);
    const stream = await post("/v1/chat/completions", { model, messages: hi, stream: true });
    expect(stream.headers.get("content-type")).toStartWith("text/event-stream");
    const chunks = chunksOf(await stream.text());
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) expectUnixSecondsNow(`${model} chunk`, chunk.created);
  }
  const routed = (await (await post("/api/byok/route", { strategy: "cost", messages: hi })).json()) as any;
  expectUnixSecondsNow("route response", routed.response.created);
});

test("ai.proxy answers the provider's own response, unmodified but for a numeric estimated_cost", async () => {
  const body = { model: "gpt-4o", messages: hi, max_tokens: 20 };
  const viaGateway = await gw.op(org.apiKey, "ai.proxy", { provider: "openai", endpoint: "chat/completions", body });
  expect(viaGateway.status).toBe(200);
  const direct = (await (
    await fetch(`${mock.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${OPENAI_KEY}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    })
  ).json()) as any;
  const { estimated_cost, ...answer } = viaGateway.body.data;
  expect(typeof estimated_cost).toBe("number");
  expect(estimated_cost).toBeGreaterThan(0);
  // The provider stamps `created` when it answers; every other field is as the provider sent it.
  expect({ ...answer, created: 0 }).toEqual({ ...direct, created: 0 });
});
