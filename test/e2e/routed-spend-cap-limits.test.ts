/**
 * A routed candidate passed over for the spend cap takes nothing of its configuration's
 * own limits: the reservation comes before them, so a capped key's calls do not use up a
 * shared configuration's requests per minute for calls it never sent there.
 */
import { beforeAll, expect, test } from "bun:test";
import OpenAI from "openai";
import { OPENAI_AT_MOCK } from "../support/provider-configs.ts";
import { stackPerFile } from "../support/stack.ts";

const stack = stackPerFile({
  providers: [
    { ...OPENAI_AT_MOCK, name: "a-limited", limits: { requestsPerMinute: 1 } },
    { ...OPENAI_AT_MOCK, name: "b-open" },
  ],
});

beforeAll(async () => {
  // Two configurations of one vendor: their models tie on quality, price and latency, so names order them (a- first).
});

test("the candidate passed over does not count against its configuration's limit; the next one there answers", async () => {
  const created = await stack.gw.op(stack.org.apiKey, "org.service-account.create", { serviceAccountName: "capped", spendCapCents: 1 });
  const client = new OpenAI({ baseURL: `${stack.gw.url}/v1`, apiKey: created.body.data.apiKey.key, maxRetries: 0 });
  // By quality: a-limited/gpt-4o, b-open/gpt-4o (both over the 1-cent cap at 1,000 answer tokens), then a-limited/gpt-4o-mini.
  const { response } = await client.chat.completions
    .create({ model: "gpt-4o*", max_tokens: 1000, messages: [{ role: "user", content: "hi" }] }, { headers: { "x-gw-route": "quality" } })
    .withResponse();
  expect(response.headers.get("x-gw-route-skipped")).toBe("a-limited/gpt-4o=spend_cap_exceeded, b-open/gpt-4o=spend_cap_exceeded");
  // Its one request a minute was still free for the call that went there.
  expect(response.headers.get("x-gw-moe-routed")).toBe("a-limited/gpt-4o-mini");
  expect(response.headers.get("x-gw-attempts")).toBe("1");
});
