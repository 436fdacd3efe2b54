/**
 * SPEC "Endpoints", POST /api/byok/route: `fallback` is automatic fallback, on unless the
 * request sets it false. With the cheapest candidate failing, the route answers from
 * the next one by default, and answers the failure when `fallback` is false.
 */
import { expect, test } from "bun:test";
import { stackPerFile } from "../support/stack.ts";

// A declared model is unpriced, so the cheapest: cost routing tries the failing one first.
const stack = stackPerFile({
  providers: [
    { provider: "custom", name: "flaky", apiKey: "sk-flaky-0000000000", baseUrl: "{mock}/v1", country: "US", models: ["fail-500"] },
    { provider: "custom", name: "steady", apiKey: "sk-steady-0000000000", baseUrl: "{mock}/v1", country: "US", models: ["gpt-4o-mini"] },
  ],
});

const route = async (body: object) => {
  const res = await fetch(`${stack.gw.url}/api/byok/route`, {
    method: "POST",
    headers: { authorization: `Bearer ${stack.org.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ strategy: "cost", messages: [{ role: "user", content: "route me" }], ...body }),
  });
  return { status: res.status, body: (await res.json()) as any };
};

// One attempt first: the failures that follow may open the failing configuration's circuit.
test("fallback false makes one attempt: the first choice's failure is the answer", async () => {
  const r = await route({ fallback: false });
  expect(r.status).toBe(502);
  expect(r.body.error).toMatchObject({ code: "provider_error", message: expect.stringContaining("flaky") });
});

test("fallback defaults to true: the failing first choice is skipped and the next answers", async () => {
  const r = await route({});
  expect(r.status).toBe(200);
  expect(r.body).toMatchObject({ selectedProvider: "steady", selectedModel: "gpt-4o-mini", strategy: "cost" });
  expect(r.body.response.choices[0].message.content.length).toBeGreaterThan(0);
  expect((await route({ fallback: true })).body.selectedProvider).toBe("steady");
});
