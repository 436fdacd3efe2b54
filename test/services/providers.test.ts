/**
 * An organization holds at most MAX_PROVIDER_CONFIGS provider configurations, whatever
 * its tier (the harness's organization is enterprise, whose tier sets no limit): each
 * may declare 2,000 models and a routed call scores every candidate. The next create is
 * a 409 that says what to do, and nothing is stored; a deleted one frees its place.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { MAX_PROVIDER_CONFIGS } from "../../src/services/providers.ts";
import { type Harness, startHarness } from "../security/harness.ts";

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h.close();
});

const create = (name: string) =>
  h.op(h.admin, "provider.create", { provider: "openai", name, apiKey: "sk-test-1234567890", scope: "organization" });

test(`the configuration after the ${MAX_PROVIDER_CONFIGS}th is refused with a 409, and one deleted frees its place`, async () => {
  // The harness's members hold none: the organization starts empty.
  expect((await h.op(h.admin, "provider.list")).body.data.providers).toHaveLength(0);
  for (let i = 0; i < MAX_PROVIDER_CONFIGS; i++) expect((await create(`p${i}`)).status).toBe(200);

  const refused = await create("one-too-many");
  expect(refused.status).toBe(409);
  expect(refused.body.code).toBe("conflict");
  expect(refused.body.error).toContain(`the most it may hold (${MAX_PROVIDER_CONFIGS})`);
  expect(refused.body.error).toContain("provider.delete");
  // A member's personal configuration counts toward the same bound.
  const personal = await h.op(h.member, "provider.create", {
    provider: "openai",
    name: "mine",
    apiKey: "sk-test-1234567890",
    scope: "user",
  });
  expect(personal.status).toBe(409);
  const listed = (await h.op(h.admin, "provider.list")).body.data.providers as { id: string; name: string }[];
  expect(listed).toHaveLength(MAX_PROVIDER_CONFIGS);

  expect((await h.op(h.admin, "provider.delete", { id: listed[0]!.id })).status).toBe(200);
  expect((await create("one-too-many")).status).toBe(200);
});

test("creates sent all at once never take the organization past the bound: the store's insert is the check", async () => {
  for (const p of (await h.op(h.admin, "provider.list")).body.data.providers as { id: string }[])
    expect((await h.op(h.admin, "provider.delete", { id: p.id })).status).toBe(200);
  // Each create counts before any has written: every one of them sees room.
  const statuses = await Promise.all(Array.from({ length: MAX_PROVIDER_CONFIGS + 30 }, (_, i) => create(`burst${i}`))).then((rs) =>
    rs.map((r) => r.status),
  );
  expect(statuses.filter((s) => s === 200)).toHaveLength(MAX_PROVIDER_CONFIGS);
  expect(statuses.filter((s) => s === 409)).toHaveLength(30);
  expect((await h.op(h.admin, "provider.list")).body.data.providers).toHaveLength(MAX_PROVIDER_CONFIGS);
});
