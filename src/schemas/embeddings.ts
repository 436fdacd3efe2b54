/** The embeddings request as the gateway checks it; unknown fields pass through. */
import { type Static, Type } from "@sinclair/typebox";
import { compileValidator } from "../lib/validator.ts";
import { ModelName } from "./names.ts";

export const EmbeddingsRequest = Type.Object({
  model: ModelName,
  input: Type.Union(
    [
      Type.String(),
      Type.Array(Type.String(), { minItems: 1, maxItems: 2048 }),
      Type.Array(Type.Integer(), { minItems: 1 }),
      Type.Array(Type.Array(Type.Integer(), { minItems: 1 }), { minItems: 1, maxItems: 2048 }),
    ],
    { errorMessage: "must be a string, an array of strings, or token arrays" },
  ),
  encoding_format: Type.Optional(Type.Union([Type.Literal("float"), Type.Literal("base64")], { errorMessage: "must be float or base64" })),
  dimensions: Type.Optional(Type.Integer({ minimum: 1, maximum: 65_536 })),
  user: Type.Optional(Type.String()),
});

export type EmbeddingsRequest = Static<typeof EmbeddingsRequest>;

export const embeddingsRequest = compileValidator(EmbeddingsRequest);
