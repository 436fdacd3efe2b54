/**
 * A routed call under a spend cap, through the official client: a candidate whose
 * reservation the cap refuses is passed over for one it can pay for, and the answer
 * says which model answered and which were passed over; a named model keeps its
 * refusal, and so does a routed call that no candidate fits.
 */
import { expect, test } from "bun:test";
import OpenAI from "openai";
import { OPENAI_AT_MOCK } from "../support/provider-configs.ts";
import { stackPerFile } from "../support/stack.ts";

/** A client on a new key with the given cap, counting the requests it sends. */
async function cappedClient(name: string, cap: { spendCapCents?: number; monthlyCapCents?: number }) {
  const created = await stack.gw.op(stack.org.apiKey, "org.service-account.create", { serviceAccountName: name, ...cap });
  const sent: Response[] = [];
  const client = new OpenAI({
    baseURL: `${stack.gw.url}/v1`,
    apiKey: created.body.data.apiKey.key,
    fetch: async (url, init) => {
      const res = await fetch(url, init);
      sent.push(res);
      return res;
    },
  });
  return { client, sent };
}

// A 1-cent cap (10,000 micro-dollars) and max_tokens 1,000: gpt-4o reserves 10 micros a completion token
// (10,000 and the prompt: over the cap), gpt-4o-mini 0.6 (about 600: within it).
const ask = { max_tokens: 1000, messages: [{ role: "user" as const, content: "Which of you answers?" }] };

const stack = stackPerFile({ providers: [OPENAI_AT_MOCK] });

test("a family routed by quality passes over the model its cap cannot pay for and answers with the next", async () => {
  const { client, sent } = await cappedClient("routed-cap-family", { spendCapCents: 1 });
  const { data, response } = await client.chat.completions
    .create({ model: "gpt-4o*", ...ask }, { headers: { "x-gw-route": "quality" } })
    .withResponse();
  expect(data.choices[0]?.message).toBeDefined();
  expect(response.headers.get("x-gw-moe-routed")).toBe("openai/gpt-4o-mini");
  expect(response.headers.get("x-gw-route-skipped")).toBe("openai/gpt-4o=spend_cap_exceeded");
  // Nothing was sent for the candidate passed over: one attempt, one request.
  expect(response.headers.get("x-gw-attempts")).toBe("1");
  expect(sent.length).toBe(1);
});

test("gateway/auto under a monthly cap answers with a candidate the cap can pay for, streaming too", async () => {
  const { client } = await cappedClient("routed-cap-auto", { monthlyCapCents: 1 });
  const { response } = await client.chat.completions
    .create({ model: "gateway/auto", ...ask }, { headers: { "x-gw-route": "quality" } })
    .withResponse();
  const skipped = (response.headers.get("x-gw-route-skipped") ?? "").split(", ");
  const routed = response.headers.get("x-gw-moe-routed");
  // The best by quality reserves more than a cent at 1,000 answer tokens.
  expect(skipped.length).toBeGreaterThan(0);
  for (const s of skipped) expect(s).toMatch(/^openai\/[^=]+=monthly_cap_exceeded$/);
  expect(routed).toMatch(/^openai\//);
  expect(skipped.map((s) => s.split("=")[0])).not.toContain(routed);
  const stream = await client.chat.completions
    .create({ model: "gpt-4o*", stream: true, ...ask }, { headers: { "x-gw-route": "quality" } })
    .withResponse();
  expect(stream.response.headers.get("x-gw-moe-routed")).toBe("openai/gpt-4o-mini");
  expect(stream.response.headers.get("x-gw-route-skipped")).toBe("openai/gpt-4o=monthly_cap_exceeded");
  let text = "";
  for await (const chunk of stream.data) text += chunk.choices[0]?.delta?.content ?? "";
  expect(text.length).toBeGreaterThan(0);
});

test("a named model keeps its refusal; a routed call no candidate fits gets the same 429, once", async () => {
  const { client, sent } = await cappedClient("routed-cap-none", { spendCapCents: 1 });
  const named = await client.chat.completions.create({ model: "gpt-4o", ...ask }).catch((e) => e);
  expect(named.status).toBe(429);
  expect(named.error.code).toBe("spend_cap_exceeded");
  expect(sent.length).toBe(1);
  const { client: spent, sent: spentSent } = await cappedClient("routed-cap-spent", { spendCapCents: 0 });
  const routed = await spent.chat.completions.create({ model: "gpt-4o*", ...ask }, { headers: { "x-gw-route": "cost" } }).catch((e) => e);
  expect(routed.status).toBe(429);
  expect(routed.error).toMatchObject({ code: "spend_cap_exceeded", type: "rate_limit_error", details: { limit: 0 } });
  // A refusal that waiting will not fix: the client does not retry it.
  expect(spentSent.length).toBe(1);
  expect(spentSent[0]?.headers.get("x-should-retry")).toBe("false");
  expect(spentSent[0]?.headers.get("x-gw-route-skipped")).toBeNull();
});

test("the route endpoint answers with the candidate the cap could pay for, and names those passed over", async () => {
  const created = await stack.gw.op(stack.org.apiKey, "org.service-account.create", {
    serviceAccountName: "routed-cap-endpoint",
    spendCapCents: 1,
  });
  const key = created.body.data.apiKey.key;
  const res = await fetch(`${stack.gw.url}/api/byok/route`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ strategy: "quality", ...ask }),
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { selectedProvider: string; selectedModel: string };
  const skipped = (res.headers.get("x-gw-route-skipped") ?? "").split(", ").map((s) => s.split("=")[0]);
  expect(skipped.length).toBeGreaterThan(0);
  expect(skipped).not.toContain(`${body.selectedProvider}/${body.selectedModel}`);
  expect(res.headers.get("x-gw-moe-routed")).toBe(`${body.selectedProvider}/${body.selectedModel}`);
  const viaOp = await stack.gw.op(key, "ai.route", { strategy: "quality", ...ask });
  expect(viaOp.status).toBe(200);
  expect(viaOp.headers.get("x-gw-route-skipped")).toBe(res.headers.get("x-gw-route-skipped"));
});
