/**
 * The messages request as the gateway checks it (the specification's table, plus
 * the fields real clients send: stop_sequences, metadata, thinking, ...). Unknown
 * fields pass through to the provider.
 */
import { type Static, Type } from "@sinclair/typebox";
import { compileValidator } from "../lib/validator.ts";
import { withBoundedIds } from "./ids.ts";
import { ModelName } from "./names.ts";

const Block = Type.Object({ type: Type.String({ minLength: 1 }) });

export const MessagesMessage = Type.Object({
  role: Type.Union([Type.Literal("user"), Type.Literal("assistant")], { errorMessage: "must be user or assistant" }),
  content: Type.Union([Type.String(), Type.Array(Block)], { errorMessage: "must be a string or an array of content blocks" }),
});

export const MessagesRequest = Type.Object({
  model: ModelName,
  messages: Type.Array(MessagesMessage, { minItems: 1, maxItems: 100_000 }),
  max_tokens: Type.Integer({ minimum: 1, errorMessage: "must be a whole number of at least 1" }),
  system: Type.Optional(Type.Union([Type.String(), Type.Array(Block)], { errorMessage: "must be a string or an array of text blocks" })),
  stream: Type.Optional(Type.Boolean()),
  temperature: Type.Optional(Type.Number({ minimum: 0, maximum: 1, errorMessage: "must be a number from 0 to 1" })),
  top_p: Type.Optional(Type.Number({ minimum: 0, maximum: 1, errorMessage: "must be a number from 0 to 1" })),
  top_k: Type.Optional(Type.Integer({ minimum: 0 })),
  stop_sequences: Type.Optional(Type.Array(Type.String())),
  tools: Type.Optional(Type.Array(Type.Object({ name: Type.String({ minLength: 1 }) }))),
  tool_choice: Type.Optional(Type.Object({ type: Type.String() })),
  metadata: Type.Optional(Type.Object({})),
});

export type MessagesRequest = Static<typeof MessagesRequest>;

/** `tool_use` ids and the `tool_result` ids that answer them. */
const MESSAGES_IDS = ["messages.*.content.*.id", "messages.*.content.*.tool_use_id"];

export const messagesRequest = withBoundedIds(compileValidator(MessagesRequest), MESSAGES_IDS);

/** `POST /v1/messages/count_tokens`: a messages request without what only an answer needs. */
export const MessagesCountTokensRequest = Type.Omit(MessagesRequest, [
  "max_tokens",
  "stream",
  "temperature",
  "top_p",
  "top_k",
  "stop_sequences",
  "metadata",
]);

export type MessagesCountTokensRequest = Static<typeof MessagesCountTokensRequest>;

export const messagesCountTokensRequest = withBoundedIds(compileValidator(MessagesCountTokensRequest), MESSAGES_IDS);
