/**
 * The chat-completions request as the gateway checks it: the specification's fields
 * and ranges, compiled once. Fields it does not name pass through to the provider
 * untouched (providers add new ones faster than any gateway).
 */
import { type Static, Type } from "@sinclair/typebox";
import { compileValidator } from "../lib/validator.ts";
import { withBoundedIds } from "./ids.ts";
import { ModelName } from "./names.ts";

const Role = Type.Union(
  [Type.Literal("system"), Type.Literal("developer"), Type.Literal("user"), Type.Literal("assistant"), Type.Literal("tool")],
  {
    errorMessage: "must be one of system, developer, user, assistant, tool",
  },
);

export const ChatMessage = Type.Object({
  role: Role,
  content: Type.Optional(Type.Union([Type.String(), Type.Array(Type.Unknown()), Type.Null()])),
  name: Type.Optional(Type.String()),
  tool_call_id: Type.Optional(Type.String()),
  tool_calls: Type.Optional(Type.Array(Type.Unknown())),
});

export const ChatTool = Type.Object({
  type: Type.Literal("function"),
  function: Type.Object({
    name: Type.String({ minLength: 1, maxLength: 128 }),
    description: Type.Optional(Type.String()),
    parameters: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  }),
});

export const ChatCompletionRequest = Type.Object({
  model: ModelName,
  messages: Type.Array(ChatMessage, { minItems: 1, maxItems: 100_000 }),
  stream: Type.Optional(Type.Boolean()),
  stream_options: Type.Optional(Type.Union([Type.Object({ include_usage: Type.Optional(Type.Boolean()) }), Type.Null()])),
  temperature: Type.Optional(
    Type.Union([Type.Number({ minimum: 0, maximum: 2 }), Type.Null()], { errorMessage: "must be a number from 0 to 2" }),
  ),
  top_p: Type.Optional(
    Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], { errorMessage: "must be a number from 0 to 1" }),
  ),
  max_tokens: Type.Optional(
    Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], { errorMessage: "must be a whole number of at least 1" }),
  ),
  max_completion_tokens: Type.Optional(
    Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], { errorMessage: "must be a whole number of at least 1" }),
  ),
  n: Type.Optional(
    Type.Union([Type.Integer({ minimum: 1, maximum: 128 }), Type.Null()], { errorMessage: "must be a whole number from 1 to 128" }),
  ),
  stop: Type.Optional(
    Type.Union([Type.String(), Type.Array(Type.String(), { maxItems: 16 }), Type.Null()], {
      errorMessage: "must be a string or an array of at most 16 strings",
    }),
  ),
  tools: Type.Optional(Type.Array(ChatTool)),
  tool_choice: Type.Optional(Type.Union([Type.String(), Type.Object({})])),
  response_format: Type.Optional(Type.Object({ type: Type.String() })),
  user: Type.Optional(Type.String()),
});

export type ChatCompletionRequest = Static<typeof ChatCompletionRequest>;
export type ChatMessage = Static<typeof ChatMessage>;

export const chatCompletionRequest = withBoundedIds(compileValidator(ChatCompletionRequest), [
  "messages.*.tool_call_id",
  "messages.*.tool_calls.*.id",
]);
