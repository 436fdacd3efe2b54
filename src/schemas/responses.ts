/**
 * The Responses API request (`POST /v1/responses`) as the gateway checks it before
 * translating it: the fields with ranges, in the caller's own names (so an error says
 * `max_output_tokens`, not the chat field it becomes). The shape of `input` items and
 * tools is checked by the translation, which names the item it refuses.
 */
import { type Static, Type } from "@sinclair/typebox";
import { compileValidator } from "../lib/validator.ts";
import { withBoundedIds } from "./ids.ts";
import { ModelName } from "./names.ts";

export const ResponsesRequest = Type.Object({
  model: ModelName,
  input: Type.Union([Type.String(), Type.Array(Type.Unknown(), { minItems: 1, maxItems: 100_000 })], {
    errorMessage: "must be a string or a non-empty array of input items",
  }),
  instructions: Type.Optional(Type.Union([Type.String(), Type.Null()], { errorMessage: "must be a string" })),
  stream: Type.Optional(Type.Union([Type.Boolean(), Type.Null()], { errorMessage: "must be true or false" })),
  temperature: Type.Optional(
    Type.Union([Type.Number({ minimum: 0, maximum: 2 }), Type.Null()], { errorMessage: "must be a number from 0 to 2" }),
  ),
  top_p: Type.Optional(
    Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], { errorMessage: "must be a number from 0 to 1" }),
  ),
  max_output_tokens: Type.Optional(
    Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], { errorMessage: "must be a whole number of at least 1" }),
  ),
  tools: Type.Optional(Type.Union([Type.Array(Type.Unknown()), Type.Null()], { errorMessage: "must be an array of tools" })),
  metadata: Type.Optional(
    Type.Union([Type.Record(Type.String(), Type.String()), Type.Null()], { errorMessage: "must be an object of string values" }),
  ),
});

export type ResponsesRequest = Static<typeof ResponsesRequest>;

export const responsesRequest = withBoundedIds(compileValidator(ResponsesRequest), ["input.*.id", "input.*.call_id"]);
