/**
 * The catalog as the gateway reads it: provider kinds plus models, with lookups that
 * tolerate dated snapshots and the vendor-family fallback, and cost arithmetic in
 * integer micro-dollars. Built once at start (with GW_CATALOG applied) and shared.
 */
import { readFileSync } from "node:fs";
import { type Static, Type } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { BUILT_IN_MODELS, type CatalogModel, PRICES_AS_OF } from "./models.ts";
import { isProviderKind, PROVIDER_KINDS, PROVIDER_KINDS_INFO, type ProviderKind, type ProviderKindInfo } from "./provider-kinds.ts";

/** `-2024-08-06` or `-20250929`: a vendor's dated snapshot of a model family. */
const SNAPSHOT_SUFFIX = /-(\d{4}-\d{2}-\d{2}|\d{8})$/;

const Money = Type.Number({ minimum: 0, maximum: 1_000_000 });
const OverrideModel = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 300 }),
    provider: Type.Optional(Type.String()),
    inputPerMTok: Type.Optional(Money),
    outputPerMTok: Type.Optional(Money),
    contextWindow: Type.Optional(Type.Integer({ minimum: 1 })),
    maxOutputTokens: Type.Optional(Type.Integer({ minimum: 0 })),
    capabilities: Type.Optional(
      Type.Partial(Type.Object({ tools: Type.Boolean(), vision: Type.Boolean(), json: Type.Boolean(), embeddings: Type.Boolean() })),
    ),
    quality: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })),
    latencyMs: Type.Optional(Type.Number({ minimum: 0 })),
    created: Type.Optional(Type.Integer({ minimum: 0 })),
  },
  { additionalProperties: false },
);
const Overrides = Type.Object(
  {
    pricesAsOf: Type.Optional(Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}$" })),
    models: Type.Optional(Type.Array(OverrideModel)),
    providers: Type.Optional(
      Type.Record(
        Type.String(),
        Type.Object(
          {
            defaultBaseUrl: Type.Optional(Type.String({ pattern: "^https?://" })),
            country: Type.Optional(Type.String({ pattern: "^[A-Z]{2}$" })),
          },
          { additionalProperties: false },
        ),
      ),
    ),
  },
  { additionalProperties: false },
);
const OverridesCheck = TypeCompiler.Compile(Overrides);

/** USD per million tokens; `estimated` when the model is unlisted and priced as its family's ceiling. */
export interface Price {
  inputPerMTok: number;
  outputPerMTok: number;
  estimated: boolean;
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
    if (m) return { inputPerMTok: m.inputPerMTok, outputPerMTok: m.outputPerMTok, estimated: false };
    return this.familyCeiling(kind);
  }

  /** Cost in micro-dollars, rounded up; USD per million tokens is exactly micro-dollars per token. */
  costMicros(price: Price, promptTokens: number, completionTokens: number): number {
    return Math.ceil(promptTokens * price.inputPerMTok + completionTokens * price.outputPerMTok);
  }

  private familyCeiling(kind: ProviderKind): Price {
    let found = this.ceilings.get(kind);
    if (found) return found;
    found = { inputPerMTok: 0, outputPerMTok: 0, estimated: false };
    for (const m of this.models) {
      if (m.provider !== kind) continue;
      found = {
        inputPerMTok: Math.max(found.inputPerMTok, m.inputPerMTok),
        outputPerMTok: Math.max(found.outputPerMTok, m.outputPerMTok),
        estimated: true,
      };
    }
    this.ceilings.set(kind, found);
    return found;
  }

  /** Applies a GW_CATALOG document: replaces fields of known models, adds new ones, moves provider defaults. */
  withOverrides(doc: unknown): Catalog {
    if (!OverridesCheck.Check(doc)) {
      const e = OverridesCheck.Errors(doc).First();
      throw new Error(`catalog override ${e?.path || "/"}: ${e?.message ?? "invalid"}`);
    }
    const o = doc as Static<typeof Overrides>;
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
