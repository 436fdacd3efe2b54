/**
 * Issue 22: a spent cap stays spent, so its 429 tells the official SDKs not to retry
 * (`x-should-retry: false`, no Retry-After): one call, one request.
 */
import { expect, test } from "bun:test";
import OpenAI from "openai";
import { OPENAI_AT_MOCK } from "../support/provider-configs.ts";
import { stackPerFile } from "../support/stack.ts";

const stack = stackPerFile({ providers: [OPENAI_AT_MOCK] });

for (const [code, cap] of [
  ["spend_cap_exceeded", { spendCapCents: 0 }],
  ["monthly_cap_exceeded", { monthlyCapCents: 0 }],
] as const) {
  test(`${code}: the official client, retries left at its default, sends exactly one request`, async () => {
    const created = await stack.gw.op(stack.org.apiKey, "org.service-account.create", { serviceAccountName: `no-retry-${code}`, ...cap });
    const seen: Response[] = [];
    const client = new OpenAI({
      baseURL: `${stack.gw.url}/v1`,
      apiKey: created.body.data.apiKey.key,
      fetch: async (url, init) => {
        const res = await fetch(url, init);
        seen.push(res);
        return res;
      },
    });
    const err = await client.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: "x" }] }).catch((e) => e);
    expect(err.status).toBe(429);
    expect(err.error.code).toBe(code);
    expect(seen.length).toBe(1);
    expect(seen[0]?.headers.get("x-should-retry")).toBe("false");
    expect(seen[0]?.headers.get("retry-after")).toBeNull();
  });
}
