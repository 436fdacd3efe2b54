import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Catalog, loadCatalog } from "../../../src/providers/catalog/catalog.ts";
import { isProviderKind, PROVIDER_KINDS, PROVIDER_KINDS_INFO } from "../../../src/providers/catalog/provider-kinds.ts";

const catalog = Catalog.builtIn();

describe("catalog data", () => {
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
