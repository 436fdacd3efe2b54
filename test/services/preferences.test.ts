/**
 * The organization's `fallbackModels` preference holds models, as `x-gw-fallback-models`
 * does: a family or `gateway/auto` (a key or a fallback) is refused when it is set, with
 * the header's message, and nothing is stored.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type Harness, startHarness } from "../security/harness.ts";

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h.close();
});

const fallbacks = async () => (await h.op(h.admin, "user.preferences", {})).body.data.fallbackModels ?? null;

for (const [label, fallbackModels, routed] of [
  ["a family as a fallback", { "gpt-4o": ["gpt-4o-mini", "claude-sonnet*"] }, "claude-sonnet*"],
  ["gateway/auto as a fallback", { "gpt-4o": ["gateway/auto"] }, "gateway/auto"],
  ["a family as the model", { "gpt-4o*": ["gpt-4o-mini"] }, "gpt-4o*"],
] as const) {
  test(`${label} is refused with the header's message`, async () => {
    const before = await fallbacks();
    const r = await h.op(h.admin, "user.preferences", { set: { fallbackModels } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("invalid_request");
    expect(r.body.error).toContain(
      `"${routed}" is routed, not a model; name models, or send it as the model with x-gw-route for routing with fallback`,
    );
    expect(r.body.error).toStartWith("params.set.fallbackModels.");
    expect(await fallbacks()).toEqual(before);
  });
}

test("named fallback models are kept", async () => {
  const r = await h.op(h.admin, "user.preferences", { set: { fallbackModels: { "gpt-4o": ["gpt-4o-mini", "an/claude-sonnet-4"] } } });
  expect(r.status).toBe(200);
  expect(await fallbacks()).toEqual({ "gpt-4o": ["gpt-4o-mini", "an/claude-sonnet-4"] });
});
