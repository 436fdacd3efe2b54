import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Catalog, loadCatalog } from "../../../src/providers/catalog/catalog.ts";
import { isProviderKind, PROVIDER_KINDS, PROVIDER_KINDS_INFO } from "../../../src/providers/catalog/provider-kinds.ts";

const catalog = Catalog.builtIn();

describe("catalog data", () => {
  test("reasoning_effort is claimed by the chat kinds whose reference documents it, never by an unknown server or another format", () => {
    const claiming = PROVIDER_KINDS.filter((k) => PROVIDER_KINDS_INFO[k].chatReasoningEffort);
    expect(claiming).toEqual(["openai", "google", "mistral", "xai", "groq", "fireworks", "openrouter", "azure-openai"]);
    for (const k of claiming) expect(PROVIDER_KINDS_INFO[k].format).toBe("chat");
  });

  test("every kind is described; every model belongs to a kind and has sane numbers", () => {
    for (const k of PROVIDER_KINDS) expect(PROVIDER_KINDS_INFO[k].kind).toBe(k);
    const ids = new Set<string>();
    for (const m of catalog.models) {
      expect(isProviderKind(m.provider)).toBe(true);
      expect(m.inputPerMTok).toBeGreaterThanOrEqual(0);
      expect(m.outputPerMTok).toBeGreaterThanOrEqual(0);
      expect(m.contextWindow).toBeGreaterThan(0);
      expect(m.quality).toBeGreaterThan(0);
      expect(m.created).toBeGreaterThan(1_600_000_000);
      expect(ids.has(m.id)).toBe(false);
      ids.add(m.id);
    }
    expect(catalog.pricesAsOf).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  test("an unlisted model is priced as its family's most expensive listed model, marked estimated", () => {
    const openai = catalog.modelsFor("openai");
    const ceiling = { input: Math.max(...openai.map((m) => m.inputPerMTok)), output: Math.max(...openai.map((m) => m.outputPerMTok)) };
    expect(ceiling.output).toBeGreaterThan(0);
    expect(catalog.price("gpt-9-unreleased", "openai")).toMatchObject({
      inputPerMTok: ceiling.input,
      outputPerMTok: ceiling.output,
      estimated: true,
    });
    expect(catalog.costMicros(catalog.price("gpt-9-unreleased", "openai"), 1000, 1000)).toBeGreaterThan(0);
    // Self-hosted and custom providers list no models: their models cost nothing, and nothing is estimated.
    expect(catalog.price("llama3", "self-hosted")).toMatchObject({ inputPerMTok: 0, outputPerMTok: 0, estimated: false });
    // An operator's GW_CATALOG entry prices it exactly.
    const priced = catalog.withOverrides({ models: [{ id: "gpt-9-unreleased", provider: "openai", inputPerMTok: 1, outputPerMTok: 2 }] });
    expect(priced.price("gpt-9-unreleased", "openai")).toMatchObject({ inputPerMTok: 1, outputPerMTok: 2, estimated: false });
  });

  test("kinds that need an address have none by default; self-hosted and custom declare a country", () => {
    for (const k of PROVIDER_KINDS) {
      const info = PROVIDER_KINDS_INFO[k];
      if (info.needsBaseUrl) expect(info.defaultBaseUrl).toBeNull();
    }
    expect(PROVIDER_KINDS_INFO["self-hosted"].country).toBeNull();
    expect(PROVIDER_KINDS_INFO.custom.country).toBeNull();
    expect(PROVIDER_KINDS_INFO.anthropic.embeddings).toBe(false);
  });
});

describe("lookups", () => {
  test("dated snapshots find their family", () => {
    expect(catalog.model("gpt-4o-2024-08-06")?.id).toBe("gpt-4o");
    expect(catalog.model("claude-sonnet-4-5-20250929")?.id).toBe("claude-sonnet-4-5");
    expect(catalog.model("nope-2024-01-01")).toBeUndefined();
  });

  test("vendor families reach their vendor", () => {
    const cases: [string, string | undefined][] = [
      ["gpt-6-turbo", "openai"],
      ["o7-mini", "openai"],
      ["claude-next", "anthropic"],
      ["gemini-9-ultra", "google"],
      ["grok-9", "xai"],
      ["mistral-huge", "mistral"],
      ["anthropic.claude-x-v1:0", "bedrock"],
      ["llama-unknown", undefined],
    ];
    for (const [id, kind] of cases) expect(catalog.vendorFor(id)).toBe(kind as never);
  });

  test("cost in integer micro-dollars", () => {
    const price = (id: string) => catalog.price(id, "openai");
    expect(catalog.costMicros(price("gpt-4o"), 1_000_000, 0)).toBe(2_500_000);
    expect(catalog.costMicros(price("gpt-4o"), 1000, 500)).toBe(2500 + 5000);
    expect(catalog.costMicros(price("gpt-4o-mini"), 1, 1)).toBe(1); // 0.75 rounds up
    expect(price("gpt-4o").estimated).toBe(false);
  });
});

describe("GW_CATALOG overrides", () => {
  test("replace a price, add a model, move a provider's address", () => {
    const c = catalog.withOverrides({
      pricesAsOf: "2026-11-01",
      models: [
        { id: "gpt-4o", inputPerMTok: 1 },
        { id: "my-llm", provider: "self-hosted", inputPerMTok: 0, outputPerMTok: 0, capabilities: { tools: true } },
      ],
      providers: { openai: { defaultBaseUrl: "https://proxy.internal/v1" } },
    });
    expect(c.model("gpt-4o")).toMatchObject({ inputPerMTok: 1, outputPerMTok: 10 });
    expect(c.model("my-llm")).toMatchObject({ provider: "self-hosted", capabilities: { tools: true, vision: false } });
    expect(c.kind("openai").defaultBaseUrl).toBe("https://proxy.internal/v1");
    expect(c.pricesAsOf).toBe("2026-11-01");
    expect(catalog.model("gpt-4o")?.inputPerMTok).toBe(2.5); // the built-in catalog is untouched
  });

  test("bad documents name the field", () => {
    expect(() => catalog.withOverrides({ models: [{ id: "x", inputPerMTok: -1 }] })).toThrow("/models/0/inputPerMTok");
    expect(() => catalog.withOverrides({ models: [{ id: "brand-new", provider: "openai" }] })).toThrow("needs inputPerMTok");
    expect(() => catalog.withOverrides({ providers: { nowhere: {} } })).toThrow("unknown provider kind");
    expect(() => catalog.withOverrides({ colour: 1 })).toThrow("catalog override");
  });

  test("loadCatalog reads a file and reports unreadable or malformed ones", () => {
    const dir = mkdtempSync(join(tmpdir(), "gw-cat-"));
    const good = join(dir, "c.json");
    writeFileSync(good, JSON.stringify({ models: [{ id: "gpt-4o", outputPerMTok: 1 }] }));
    expect(loadCatalog(good).model("gpt-4o")?.outputPerMTok).toBe(1);
    const bad = join(dir, "bad.json");
    writeFileSync(bad, "{nope");
    expect(() => loadCatalog(bad)).toThrow("not valid JSON");
    expect(() => loadCatalog(join(dir, "missing.json"))).toThrow("cannot read");
    expect(loadCatalog(null).models.length).toBe(catalog.models.length);
  });
});

describe("prompt-cache prices", () => {
  const cache = (read: number, write: number, writeLong = 0) => ({ read, write, writeLong });

  test("Anthropic's rule: reads 0.1x, 5-minute writes 1.25x, 1-hour writes 2x the input price, for the vendor and Bedrock", () => {
    for (const [id, kind] of [
      ["claude-sonnet-4-5", "anthropic"],
      ["anthropic.claude-sonnet-4-5-20250929-v1:0", "bedrock"],
    ] as const) {
      expect(catalog.price(id, kind)).toMatchObject({
        inputPerMTok: 3,
        cacheReadPerMTok: 0.3,
        cacheWritePerMTok: 3.75,
        cacheWriteLongPerMTok: 6,
      });
    }
    // 10 uncached at $3, 2,000 reads at $0.30, 300 5-minute writes at $3.75, 200 1-hour writes at $6, 100 out at $15.
    const sonnet = catalog.price("claude-sonnet-4-5", "anthropic");
    expect(catalog.costMicros(sonnet, 2510, 100, cache(2000, 500, 200))).toBe(30 + 600 + 1125 + 1200 + 1500);
  });

  test("OpenAI's listed cached-input prices; writes at the input price", () => {
    const expected: [string, number][] = [
      ["gpt-4o", 1.25],
      ["gpt-4o-mini", 0.075],
      ["gpt-4.1", 0.5],
      ["gpt-5", 0.125],
      ["gpt-5-nano", 0.005],
    ];
    for (const [id, read] of expected) expect(catalog.price(id, "openai").cacheReadPerMTok).toBe(read);
    const gpt4o = catalog.price("gpt-4o-2024-08-06", "openai");
    expect(gpt4o.cacheWritePerMTok).toBe(2.5);
    // 1,000 uncached at $2.50, 2,000 reads at $1.25, 10 out at $10.
    expect(catalog.costMicros(gpt4o, 3000, 10, cache(2000, 0))).toBe(2500 + 2500 + 100);
  });

  test("a model without cache prices charges its cache tokens at its input price, as before", () => {
    const mistral = catalog.price("mistral-small-latest", "mistral");
    expect(catalog.costMicros(mistral, 3000, 10, cache(2000, 500))).toBe(catalog.costMicros(mistral, 3000, 10));
  });

  test("rounded up once, in whole micro-dollars; odd counts never make the prompt cheaper", () => {
    const mini = catalog.price("gpt-4o-mini", "openai");
    // 1 read at $0.075 and 1 uncached at $0.15: 0.225 micro-dollars, one micro-dollar, not two.
    expect(catalog.costMicros(mini, 2, 0, cache(1, 0))).toBe(1);
    // 300 reads at 0.1 x $1 are 30 micro-dollars, with no float tail (300 x 0.1 is 30.000000000000004) rounded up to 31.
    expect(catalog.costMicros(catalog.price("claude-haiku-4-5", "anthropic"), 300, 0, cache(300, 0))).toBe(30);
    // Cache counts past the prompt are cut to it, writes first: the prompt is never priced below its uncached tokens.
    const sonnet = catalog.price("claude-sonnet-4-5", "anthropic");
    expect(catalog.costMicros(sonnet, 100, 0, cache(500, 80, 500))).toBe(20 * 0.3 + 80 * 6);
    expect(catalog.costMicros(sonnet, 100, 0, { read: -5, write: Number.NaN, writeLong: 0 })).toBe(300);
  });

  test("an unlisted model's cache tokens cost the family's most expensive listed cache price", () => {
    const ceiling = catalog.price("claude-next", "anthropic");
    expect(ceiling).toMatchObject({
      estimated: true,
      inputPerMTok: 15,
      cacheReadPerMTok: 1.5,
      cacheWritePerMTok: 18.75,
      cacheWriteLongPerMTok: 30,
    });
  });

  test("GW_CATALOG sets cache prices; a new input price moves a rule vendor's cache prices", () => {
    const o = catalog.withOverrides({
      models: [
        { id: "gpt-4o", cacheReadPerMTok: 1 },
        { id: "claude-haiku-4-5", inputPerMTok: 2 },
        { id: "in-house", provider: "openai", inputPerMTok: 1, outputPerMTok: 1, cacheReadPerMTok: 0.5, cacheWritePerMTok: 1.5 },
      ],
    });
    expect(o.price("gpt-4o", "openai")).toMatchObject({ inputPerMTok: 2.5, cacheReadPerMTok: 1 });
    expect(o.price("claude-haiku-4-5", "anthropic")).toMatchObject({
      cacheReadPerMTok: 0.2,
      cacheWritePerMTok: 2.5,
      cacheWriteLongPerMTok: 4,
    });
    expect(o.price("in-house", "openai")).toMatchObject({ cacheReadPerMTok: 0.5, cacheWritePerMTok: 1.5, cacheWriteLongPerMTok: 1.5 });
    expect(() => catalog.withOverrides({ models: [{ id: "gpt-4o", cacheReadPerMTok: -1 }] })).toThrow("/models/0/cacheReadPerMTok");
  });
});
