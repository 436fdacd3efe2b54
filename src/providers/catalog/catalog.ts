/**
 * The catalog as the gateway reads it: provider kinds plus models, with lookups that
 * tolerate dated snapshots and the vendor-family fallback, and cost arithmetic in
 * integer micro-dollars. Built once at start (with GW_CATALOG applied) and shared.
 */
import { readFileSync } from "node:fs";
import { ruleCachePrices } from "./cache-prices.ts";
import { type CatalogOverrides, OverridesCheck } from "./catalog-overrides.ts";
import { type PriceBand, SERVICE_TIERS, type ServiceTier, type TierPrice } from "./price-bands.ts";
import { BUILT_IN_MODELS, type CatalogModel, PRICES_AS_OF } from "./models.ts";
import { isProviderKind, PROVIDER_KINDS, PROVIDER_KINDS_INFO, type ProviderKind, type ProviderKindInfo } from "./provider-kinds.ts";

/** `-2024-08-06` or `-20250929`: a vendor's dated snapshot of a model family. */
const SNAPSHOT_SUFFIX = /-(\d{4}-\d{2}-\d{2}|\d{8})$/;

/**
 * USD per million tokens; `estimated` when the model is unlisted and priced as its
 * family's ceiling. Cache prices are always there: a model without its own is its input price.
 */
export interface Price {
  inputPerMTok: number;
  outputPerMTok: number;
  /** A prompt token read from the provider's cache. */
  cacheReadPerMTok: number;
  /** A prompt token written to the cache for the default (5-minute) lifetime. */
  cacheWritePerMTok: number;
  /** A prompt token written to the cache for the long (1-hour) lifetime. */
  cacheWriteLongPerMTok: number;
  estimated: boolean;
  /** Higher rates for the whole call when its prompt is above `aboveTokens` (cache prices filled in as above). */
  longContext?: Rates & { aboveTokens: number };
  /** Rates of the service tiers the model lists; a tier not here is charged the standard rates. */
  serviceTiers?: Partial<Record<ServiceTier, Rates>>;
}

/** One set of rates, USD per million tokens, every cache price filled in. */
export type Rates = Pick<Price, "inputPerMTok" | "outputPerMTok" | "cacheReadPerMTok" | "cacheWritePerMTok" | "cacheWriteLongPerMTok">;

/** Of a call's prompt tokens, those the provider read from or wrote to its prompt cache. */
export interface CacheTokens {
  read: number;
  /** Every write, the long-lived ones included. */
  write: number;
  /** Of `write`, those written for the long (1-hour) lifetime. */
  writeLong: number;
}

/** Rates with each cache price it does not list at its input price. */
function ratesOf(r: PriceBand | TierPrice | CatalogModel): Rates {
  const c = r as PriceBand;
  return {
    inputPerMTok: r.inputPerMTok,
    outputPerMTok: r.outputPerMTok,
    cacheReadPerMTok: c.cacheReadPerMTok ?? r.inputPerMTok,
    cacheWritePerMTok: c.cacheWritePerMTok ?? r.inputPerMTok,
    cacheWriteLongPerMTok: c.cacheWriteLongPerMTok ?? c.cacheWritePerMTok ?? r.inputPerMTok,
  };
}

/** A model's price as the catalog charges it: each cache price it does not list is its input price. */
function priceOf(m: CatalogModel, estimated: boolean): Price {
  const price: Price = { ...ratesOf(m), estimated };
  if (m.longContext) price.longContext = { ...ratesOf(m.longContext), aboveTokens: m.longContext.aboveTokens };
  if (m.serviceTiers) {
    const tiers: Partial<Record<ServiceTier, Rates>> = {};
    for (const t of SERVICE_TIERS) {
      const tier = m.serviceTiers[t];
      if (tier) tiers[t] = ratesOf(tier);
    }
    price.serviceTiers = tiers;
  }
  return price;
}

/**
 * The rates a call is charged: a listed tier's (the answer's `service_tier`), else the
 * long-context band's when the prompt is above its threshold, else the standard ones.
 * A tier the model does not list is charged the standard rates: for `flex`, cheaper than
 * standard, that over-charges and never lets a cap be passed; for `priority`, OpenAI
 * publishes no multiplier to apply, so the gateway does not guess one (docs/decisions.md).
 */
export function ratesFor(price: Price, promptTokens: number, tier?: string | null): Rates {
  const tiered = tier && Object.hasOwn(price.serviceTiers ?? {}, tier) ? price.serviceTiers?.[tier as ServiceTier] : undefined;
  if (tiered) return tiered;
  if (price.longContext && whole(promptTokens) > price.longContext.aboveTokens) return price.longContext;
  return price;
}

/** A count as a whole number of tokens, at least 0: anything else is taken as none. */
const whole = (v: unknown): number => (typeof v === "number" && v > 0 && v <= Number.MAX_SAFE_INTEGER ? Math.floor(v) : 0);

/** Float noise below this (in micro-dollars) is not rounded up to a whole micro-dollar more. */
const FLOAT_NOISE_MICROS = 1e-6;

/**
 * The family's band for a model it does not list: from the lowest threshold any listed
 * model has, each rate the highest of the family's ceiling and every band's, so a long
 * prompt to an unlisted model never costs less than it would at a listed one.
 */
function ceilingBand(ceiling: Rates, bands: NonNullable<Price["longContext"]>[]): NonNullable<Price["longContext"]> {
  const top = (k: keyof Rates) => Math.max(ceiling[k], ...bands.map((b) => b[k]));
  return {
    aboveTokens: Math.min(...bands.map((b) => b.aboveTokens)),
    inputPerMTok: top("inputPerMTok"),
    outputPerMTok: top("outputPerMTok"),
    cacheReadPerMTok: top("cacheReadPerMTok"),
    cacheWritePerMTok: top("cacheWritePerMTok"),
    cacheWriteLongPerMTok: top("cacheWriteLongPerMTok"),
  };
}

export class Catalog {
  private readonly byId: Map<string, CatalogModel>;
  /** Each family's ceiling price, worked out on first use (the catalog never changes after start). */
  private readonly ceilings = new Map<ProviderKind, Price>();

  private constructor(
    private readonly kinds: Record<ProviderKind, ProviderKindInfo>,
    readonly models: readonly CatalogModel[],
    readonly pricesAsOf: string,
  ) {
    this.byId = new Map(models.map((m) => [m.id, m]));
  }

  static builtIn(): Catalog {
    return new Catalog(PROVIDER_KINDS_INFO, BUILT_IN_MODELS, PRICES_AS_OF);
  }

  kind(kind: ProviderKind): ProviderKindInfo {
    return this.kinds[kind];
  }

  /** Exact id, else the family of a dated snapshot (`gpt-4o-2024-08-06` -> `gpt-4o`). */
  model(id: string): CatalogModel | undefined {
    return this.byId.get(id) ?? this.byId.get(id.replace(SNAPSHOT_SUFFIX, ""));
  }

  modelsFor(kind: ProviderKind): CatalogModel[] {
    return this.models.filter((m) => m.provider === kind);
  }

  /** The vendor whose model families match the id, for models newer than the catalog. */
  vendorFor(modelId: string): ProviderKind | undefined {
    return PROVIDER_KINDS.find((k) => this.kinds[k].modelPatterns.some((p) => p.test(modelId)));
  }

  /**
   * What a model costs per million tokens. A model the catalog does not list (newer than
   * the catalog, or declared by a provider) is priced as its family's most expensive
   * listed model, marked `estimated`, so it can neither spend for free nor slip past a
   * cap; an operator prices it exactly with GW_CATALOG. Kinds that list no models
   * (self-hosted, custom) cost nothing.
   */
  price(modelId: string, kind: ProviderKind): Price {
    const m = this.model(modelId);
    if (m) return priceOf(m, false);
    return this.familyCeiling(kind);
  }

  /**
   * Cost in micro-dollars, rounded up once; USD per million tokens is exactly
   * micro-dollars per token. `cache` parts the prompt: its reads, its writes (the
   * long-lived ones apart) and the rest, each at its own price. Cache counts larger than
   * the prompt are cut to it, writes first (they cost the input price or more), so a
   * provider's odd counts never make a call cheaper than its prompt. The rates are the
   * answer's service tier's, or the long-context band's for a prompt above its threshold
   * (`ratesFor`).
   */
  costMicros(price: Price, promptTokens: number, completionTokens: number, cache?: CacheTokens, tier?: string | null): number {
    const rates = ratesFor(price, promptTokens, tier);
    const prompt = whole(promptTokens);
    const write = Math.min(whole(cache?.write), prompt);
    const writeLong = Math.min(whole(cache?.writeLong), write);
    const read = Math.min(whole(cache?.read), prompt - write);
    const micros =
      (prompt - write - read) * rates.inputPerMTok +
      read * rates.cacheReadPerMTok +
      (write - writeLong) * rates.cacheWritePerMTok +
      writeLong * rates.cacheWriteLongPerMTok +
      whole(completionTokens) * rates.outputPerMTok;
    return Math.max(0, Math.ceil(micros - FLOAT_NOISE_MICROS));
  }

  /** The most any listed model of the family costs, for each kind of token apart. */
  private familyCeiling(kind: ProviderKind): Price {
    let found = this.ceilings.get(kind);
    if (found) return found;
    found = { inputPerMTok: 0, outputPerMTok: 0, cacheReadPerMTok: 0, cacheWritePerMTok: 0, cacheWriteLongPerMTok: 0, estimated: false };
    for (const m of this.models) {
      if (m.provider !== kind) continue;
      const p = priceOf(m, true);
      found = {
        inputPerMTok: Math.max(found.inputPerMTok, p.inputPerMTok),
        outputPerMTok: Math.max(found.outputPerMTok, p.outputPerMTok),
        cacheReadPerMTok: Math.max(found.cacheReadPerMTok, p.cacheReadPerMTok),
        cacheWritePerMTok: Math.max(found.cacheWritePerMTok, p.cacheWritePerMTok),
        cacheWriteLongPerMTok: Math.max(found.cacheWriteLongPerMTok, p.cacheWriteLongPerMTok),
        estimated: true,
      };
    }
    const bands = this.models.filter((m) => m.provider === kind && m.longContext).map((m) => priceOf(m, true).longContext);
    if (bands.length > 0) found.longContext = ceilingBand(found, bands as NonNullable<Price["longContext"]>[]);
    this.ceilings.set(kind, found);
    return found;
  }

  /** Applies a GW_CATALOG document: replaces fields of known models, adds new ones, moves provider defaults. */
  withOverrides(doc: unknown): Catalog {
    if (!OverridesCheck.Check(doc)) {
      const e = OverridesCheck.Errors(doc).First();
      throw new Error(`catalog override ${e?.path || "/"}: ${e?.message ?? "invalid"}`);
    }
    const o = doc as CatalogOverrides;
    const kinds = { ...this.kinds };
    for (const [kind, patch] of Object.entries(o.providers ?? {})) {
      if (!isProviderKind(kind)) throw new Error(`catalog override /providers/${kind}: unknown provider kind`);
      kinds[kind] = { ...kinds[kind], ...patch };
    }
    const models = new Map(this.models.map((m) => [m.id, m]));
    for (const [i, patch] of (o.models ?? []).entries()) {
      const base = models.get(patch.id);
      const provider = patch.provider ?? base?.provider;
      if (!provider || !isProviderKind(provider))
        throw new Error(`catalog override /models/${i}/provider: a known provider kind is required for new model ${patch.id}`);
      if (!base && (patch.inputPerMTok === undefined || patch.outputPerMTok === undefined)) {
        throw new Error(`catalog override /models/${i}: new model ${patch.id} needs inputPerMTok and outputPerMTok`);
      }
      const capabilities = { tools: false, vision: false, json: false, embeddings: false, ...base?.capabilities, ...patch.capabilities };
      models.set(patch.id, {
        contextWindow: 128_000,
        maxOutputTokens: 4_096,
        quality: 70,
        latencyMs: 1000,
        created: 0,
        ...base,
        // A new input price moves the cache prices of a vendor that prices them by one rule (Anthropic's multiples).
        ...(patch.inputPerMTok === undefined ? {} : ruleCachePrices(provider, patch.inputPerMTok)),
        ...patch,
        provider,
        capabilities,
      } as CatalogModel);
    }
    return new Catalog(kinds, [...models.values()], o.pricesAsOf ?? this.pricesAsOf);
  }
}

/** The built-in catalog, with the GW_CATALOG file applied when one is configured. */
export function loadCatalog(path: string | null): Catalog {
  const builtIn = Catalog.builtIn();
  if (!path) return builtIn;
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new Error(`GW_CATALOG: cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? err}`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new Error(`GW_CATALOG: ${path} is not valid JSON: ${(err as Error).message}`);
  }
  return builtIn.withOverrides(doc);
}
