/**
 * Stage 7's two prices: a reservation tries the byte ceiling first and falls back to
 * the tokenizer's count only when a cap refuses the ceiling.
 */
import { expect, test } from "bun:test";
import { DEFAULT_ORG_PREFERENCES } from "../../src/domain/types.ts";
import { estimatePromptTokens, promptTokenBound } from "../../src/lib/token-estimate.ts";
import { reserveSpend, type SpendDeps } from "../../src/pipeline/reserve-spend.ts";
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
