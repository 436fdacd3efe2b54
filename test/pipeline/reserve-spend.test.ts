/**
 * Stage 7's two prices: a reservation tries the byte ceiling first and falls back to
 * the tokenizer's count only when a cap refuses the ceiling.
 */
import { expect, test } from "bun:test";
import { DEFAULT_ORG_PREFERENCES } from "../../src/domain/types.ts";
import { estimatePromptTokens, promptTokenBound } from "../../src/lib/token-estimate.ts";
import { estimatedPromptTokens, reserveSpend, type SpendDeps } from "../../src/pipeline/reserve-spend.ts";
import type { Identity } from "../../src/domain/identity.ts";
import { MemoryOrgSettings } from "../../src/state/org-settings.ts";
import { MemorySpendLedger } from "../../src/state/memory-spend-ledger.ts";
import { testCatalog, testTarget } from "../support/targets.ts";

const catalog = testCatalog;
const target = testTarget("openai", "gpt-4o");
// Prose of many bytes per token: the ceiling is several times the tokenizer's count.
const messages = [{ role: "user", content: "The quarterly report shows steady growth in the northern region. ".repeat(800) }];
const maxTokens = 10;

function keyWithCap(capCents: number): Identity {
  const organization = { id: "org_t", name: "T", tier: "enterprise", createdAt: 0 };
  const key = { id: "key_t", orgId: "org_t", spendCapCents: capCents, monthlyCapCents: null };
  return { kind: "serviceAccount", id: "sa_t", role: "member", organization, key } as unknown as Identity;
}

function deps(): SpendDeps {
  return {
    ledger: new MemorySpendLedger({ keyLifetimeMicros: async () => 0, spentSince: async () => 0 }),
    settings: new MemoryOrgSettings(async () => DEFAULT_ORG_PREFERENCES),
    catalog,
  };
}

const priced = (tokens: number) => catalog.costMicros(catalog.price("gpt-4o", "openai"), tokens, maxTokens);

test("a cap between the tokenizer's price and the ceiling still admits the call, at the tokenizer's price", async () => {
  const exact = priced(estimatePromptTokens(messages));
  const ceiling = priced(promptTokenBound(messages));
  // A cap (whole cents) that one exact price fits under, and neither the ceiling nor two exact prices do.
  const capCents = Math.floor((1.5 * exact) / 10_000);
  expect(exact).toBeLessThanOrEqual(capCents * 10_000);
  expect(capCents * 10_000).toBeLessThan(Math.min(ceiling, 2 * exact));
  const d = deps();
  const who = keyWithCap(capCents);
  const first = await reserveSpend(d, who, target, { messages, maxTokens });
  // Had the ceiling been reserved the first call would have been refused; the exact price leaves no room for a second.
  await expect(reserveSpend(d, who, target, { messages, maxTokens })).rejects.toMatchObject({ code: "spend_cap_exceeded" });
  first.release();
  (await reserveSpend(d, who, target, { messages, maxTokens })).release();
});

test("far from the cap the ceiling is reserved, and a call past even the tokenizer's price is refused", async () => {
  const d = deps();
  const exact = priced(estimatePromptTokens(messages));
  const tooSmall = Math.floor(exact / 10_000) - 1;
  await expect(reserveSpend(d, keyWithCap(Math.max(0, tooSmall)), target, { messages, maxTokens })).rejects.toMatchObject({
    code: "spend_cap_exceeded",
  });
});

test("the reservation prices the whole prompt at the input price: a cache hit is not known before the answer", async () => {
  const haiku = testTarget("anthropic", "claude-haiku-4-5");
  let reserved = -1;
  const r = await reserveSpend(deps(), keyWithCap(1_000_000), haiku, { messages, maxTokens }, (micros) => (reserved = micros));
  // Claude Haiku 4.5: $1 input, $5 output per million tokens; its cache reads ($0.10) never lower the hold.
  expect(reserved).toBe(promptTokenBound(messages) * 1 + maxTokens * 5);
  r.release();
});

/** What a call of this size reserves, uncapped but reserved against a large cap so the estimate is computed. */
async function reservedFor(model: [Parameters<typeof testTarget>[0], string], size: Parameters<typeof reserveSpend>[3]): Promise<number> {
  let reserved = -1;
  const r = await reserveSpend(deps(), keyWithCap(100_000_000), testTarget(...model), size, (micros) => (reserved = micros));
  r.release();
  return reserved;
}

const hi = [{ role: "user", content: "hi" }];

test("an estimated prompt above a long-context threshold is reserved at the band's rates, for the whole call", async () => {
  // Claude Sonnet 4.5 over 200K prompt tokens: $6 input, $22.50 output (not $3 / $15).
  expect(await reservedFor(["anthropic", "claude-sonnet-4-5"], { messages: hi, maxTokens: 1_000, storedPromptTokens: 250_000 })).toBe(
    250_000 * 6 + 1_000 * 22.5,
  );
  // At the threshold itself, the standard rates.
  expect(await reservedFor(["anthropic", "claude-sonnet-4-5"], { messages: hi, maxTokens: 1_000, storedPromptTokens: 200_000 })).toBe(
    200_000 * 3 + 1_000 * 15,
  );
});

test("a requested tier dearer than standard is reserved at its price; a cheaper or unpriced one at the standard price", async () => {
  const size = { messages: hi, maxTokens: 1_000, storedPromptTokens: 10_000 };
  const standard = 10_000 * 1.25 + 1_000 * 10;
  // GPT-5 priority: $2.50 input, $20 output.
  expect(await reservedFor(["openai", "gpt-5"], { ...size, serviceTier: "priority" })).toBe(10_000 * 2.5 + 1_000 * 20);
  expect(await reservedFor(["openai", "gpt-5"], { ...size, serviceTier: "flex" })).toBe(standard);
  expect(await reservedFor(["openai", "gpt-5"], { ...size, serviceTier: 3 })).toBe(standard);
  expect(await reservedFor(["openai", "gpt-5"], size)).toBe(standard);
});

test("embeddings token ids are counted one token each, not tokenized as the digits of their JSON", () => {
  const flat = Array.from({ length: 20_000 }, (_, i) => 1000 + (i % 50_000));
  const nested = Array.from({ length: 200 }, () => Array.from({ length: 100 }, (_, i) => 70_000 + i));
  // A provider counts 20,000 and 20,000 prompt tokens: the estimate (a spend reservation near a cap, a provider's
  // tokens-per-minute limit, the charge when no usage is reported) was five times that for a flat array, three for nested ones.
  for (const input of [flat, nested]) {
    const tokens = estimatedPromptTokens({ input });
    expect(tokens).toBeGreaterThanOrEqual(20_000);
    expect(tokens).toBeLessThan(20_100);
  }
  // Text inputs are still counted as text.
  expect(estimatedPromptTokens({ input: ["The quarterly report.", "Steady growth."] })).toBe(
    estimatePromptTokens([{ content: "The quarterly report." }, { content: "Steady growth." }]),
  );
});

test("a capped key's embeddings call of token ids is reserved at their count: admitted under a cap that holds it", async () => {
  const embedding = testTarget("openai", "text-embedding-3-large");
  const input = Array.from({ length: 16 }, () => Array.from({ length: 8_000 }, (_, i) => 90_000 + i));
  // 128,000 tokens at $0.13 per million: 1.7 cents. A 2-cent cap holds it; three times the count (the digits' tokens) did not.
  const capCents = 2;
  expect(catalog.costMicros(catalog.price("text-embedding-3-large", "openai"), 128_003, 0)).toBeLessThan(capCents * 10_000);
  (await reserveSpend(deps(), keyWithCap(capCents), embedding, { input })).release();
});

test("a call a cap refuses while the organization has a budget is told to the alert check; without a budget it is not", async () => {
  const refusals: string[] = [];
  const budgeted = (monthlyBudgetCents: number | null): SpendDeps => ({
    ...deps(),
    settings: new MemoryOrgSettings(async () => ({ ...DEFAULT_ORG_PREFERENCES, monthlyBudgetCents })),
    onBudgetRefusal: (orgId) => refusals.push(orgId),
  });
  const who = keyWithCap(1_000_000);
  await expect(reserveSpend(budgeted(0), who, target, { messages, maxTokens })).rejects.toMatchObject({ code: "monthly_cap_exceeded" });
  expect(refusals).toEqual(["org_t"]);
  // A key's cap refusing with no budget set: nothing for the budget check.
  await expect(reserveSpend(budgeted(null), keyWithCap(0), target, { messages, maxTokens })).rejects.toMatchObject({
    code: "spend_cap_exceeded",
  });
  // Admitted under the budget: nothing either.
  (await reserveSpend(budgeted(1_000_000), who, target, { messages, maxTokens })).release();
  expect(refusals).toEqual(["org_t"]);
});
