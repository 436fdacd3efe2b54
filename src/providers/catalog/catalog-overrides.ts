/** The GW_CATALOG document's schema: which model, price, band, tier and provider fields an operator may set. */
import { type Static, Type } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { SERVICE_TIERS } from "./price-bands.ts";

const Money = Type.Number({ minimum: 0, maximum: 1_000_000 });
const OverrideModel = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 300 }),
    provider: Type.Optional(Type.String()),
    inputPerMTok: Type.Optional(Money),
    outputPerMTok: Type.Optional(Money),
    cacheReadPerMTok: Type.Optional(Money),
    cacheWritePerMTok: Type.Optional(Money),
    cacheWriteLongPerMTok: Type.Optional(Money),
    longContext: Type.Optional(
      Type.Object(
        {
          aboveTokens: Type.Integer({ minimum: 1 }),
          inputPerMTok: Money,
          outputPerMTok: Money,
          cacheReadPerMTok: Type.Optional(Money),
          cacheWritePerMTok: Type.Optional(Money),
          cacheWriteLongPerMTok: Type.Optional(Money),
        },
        { additionalProperties: false },
      ),
    ),
    serviceTiers: Type.Optional(
      Type.Partial(
        Type.Object(
          Object.fromEntries(
            SERVICE_TIERS.map((t) => [
              t,
              Type.Object(
                { inputPerMTok: Money, outputPerMTok: Money, cacheReadPerMTok: Type.Optional(Money) },
                { additionalProperties: false },
              ),
            ]),
          ),
          { additionalProperties: false },
        ),
      ),
    ),
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
export const OverridesCheck = TypeCompiler.Compile(Overrides);
export type CatalogOverrides = Static<typeof Overrides>;
