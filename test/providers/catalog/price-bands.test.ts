import { describe, expect, test } from "bun:test";
import { Catalog } from "../../../src/providers/catalog/catalog.ts";

const catalog = Catalog.builtIn();
const sonnet = catalog.price("claude-sonnet-4-5", "anthropic");

describe("long-context bands", () => {
  test("a prompt of exactly the threshold is priced at the standard rates; one token more prices the whole call in the band", () => {
    // 200,000 x $3 + 1,000 x $15 = 615,000 micro-dollars.
    expect(catalog.costMicros(sonnet, 200_000, 1_000)).toBe(615_000);
    // 200,001 x $6 + 1,000 x $22.50 = 1,222,506.
    expect(catalog.costMicros(sonnet, 200_001, 1_000)).toBe(1_222_506);
  });

  test("cache reads and writes count toward the threshold and are priced at the band's cache rates", () => {
    const cache = { read: 150_000, write: 40_000, writeLong: 10_000 };
    // 210,000 prompt tokens: 20,000 x $6 + 150,000 x $0.60 + 30,000 x $7.50 + 10,000 x $12 + 100 x $22.50.
    expect(catalog.costMicros(sonnet, 210_000, 100, cache)).toBe(120_000 + 90_000 + 225_000 + 120_000 + 2_250);
    // Under the threshold the same split is at the standard cache rates.
    expect(catalog.costMicros(sonnet, 190_000, 100, cache)).toBe(0 + 45_000 + 112_500 + 60_000 + 1_500);
  });

  test("Gemini 2.5 Pro's band has no cache prices of its own: its cache reads are the band's input price", () => {
    const gemini = catalog.price("gemini-2.5-pro", "google");
    expect(catalog.costMicros(gemini, 300_000, 1_000, { read: 100_000, write: 0, writeLong: 0 })).toBe(300_000 * 2.5 + 1_000 * 15);
    expect(catalog.costMicros(gemini, 100_000, 1_000)).toBe(100_000 * 1.25 + 1_000 * 10);
  });

  test("a dated snapshot carries its family's band; a model without one stays at one rate", () => {
    expect(catalog.costMicros(catalog.price("claude-sonnet-4-5-20250929", "anthropic"), 300_000, 0)).toBe(1_800_000);
    expect(catalog.costMicros(catalog.price("gpt-4o", "openai"), 300_000, 0)).toBe(750_000);
  });

  test("GW_CATALOG sets a band on a model, and its cache prices default to the band's input price", () => {
    const c = catalog.withOverrides({
      models: [{ id: "gpt-4o", longContext: { aboveTokens: 100_000, inputPerMTok: 5, outputPerMTok: 20 } }],
    });
    const p = c.price("gpt-4o", "openai");
    expect(c.costMicros(p, 100_000, 10)).toBe(250_000 + 100);
    expect(c.costMicros(p, 100_001, 10, { read: 1, write: 0, writeLong: 0 })).toBe(100_001 * 5 + 200);
  });

  test("a band override missing a rate, or with a threshold of 0, is refused with its path", () => {
    expect(() => catalog.withOverrides({ models: [{ id: "gpt-4o", longContext: { aboveTokens: 1, inputPerMTok: 5 } }] })).toThrow(
      "catalog override /models/0/longContext",
    );
    expect(() =>
      catalog.withOverrides({ models: [{ id: "gpt-4o", longContext: { aboveTokens: 0, inputPerMTok: 5, outputPerMTok: 5 } }] }),
    ).toThrow("catalog override /models/0/longContext/aboveTokens");
  });
});

describe("service tiers", () => {
  const gpt5 = catalog.price("gpt-5", "openai");

  test("a listed tier's rates price the call, its cached input included", () => {
    // 10,000 x $2.50 + 2,000 cached x $0.25 + 1,000 x $20 (priority) against $1.25 / $0.125 / $10 standard.
    const cache = { read: 2_000, write: 0, writeLong: 0 };
    expect(catalog.costMicros(gpt5, 12_000, 1_000, cache, "priority")).toBe(25_000 + 500 + 20_000);
    expect(catalog.costMicros(gpt5, 12_000, 1_000, cache, "default")).toBe(12_500 + 250 + 10_000);
  });

  test("flex without a listed price, and a tier the catalog does not know, are charged the standard price", () => {
    const standard = catalog.costMicros(gpt5, 12_000, 1_000);
    expect(catalog.costMicros(gpt5, 12_000, 1_000, undefined, "flex")).toBe(standard);
    expect(catalog.costMicros(gpt5, 12_000, 1_000, undefined, "scale")).toBe(standard);
    expect(catalog.costMicros(gpt5, 12_000, 1_000, undefined, "constructor")).toBe(standard);
  });

  test("priority on a model with no published priority price is charged the standard price, not a guess", () => {
    const nano = catalog.price("gpt-5-nano", "openai");
    expect(catalog.costMicros(nano, 1_000, 1_000, undefined, "priority")).toBe(catalog.costMicros(nano, 1_000, 1_000));
  });

  test("GW_CATALOG sets a flex price; an unknown tier name is refused", () => {
    const c = catalog.withOverrides({ models: [{ id: "gpt-5", serviceTiers: { flex: { inputPerMTok: 0.625, outputPerMTok: 5 } } }] });
    expect(c.costMicros(c.price("gpt-5", "openai"), 8_000, 1_000, undefined, "flex")).toBe(5_000 + 5_000);
    expect(() =>
      catalog.withOverrides({ models: [{ id: "gpt-5", serviceTiers: { turbo: { inputPerMTok: 1, outputPerMTok: 1 } } }] }),
    ).toThrow("catalog override /models/0/serviceTiers");
  });
});

describe("a model the catalog does not list", () => {
  test("is priced in its family's band above the lowest listed threshold, at rates no lower than any listed model's", () => {
    const unlisted = catalog.price("gemini-9-pro", "google");
    expect(unlisted.estimated).toBe(true);
    const ceiling = catalog.costMicros(unlisted, 200_000, 0);
    // Above 200K: at least Gemini 2.5 Pro's band input ($2.50), and never below the family's ceiling.
    expect(catalog.costMicros(unlisted, 300_000, 0)).toBeGreaterThanOrEqual(300_000 * 2.5);
    expect(catalog.costMicros(unlisted, 300_000, 0)).toBeGreaterThanOrEqual((ceiling / 200_000) * 300_000);
    // A family with no band stays at one rate.
    const openai = catalog.price("gpt-9", "openai");
    expect(openai.longContext).toBeUndefined();
  });
});
