/**
 * `ai.*` operations: a model call through the gateway envelope (`ai.proxy`), a cost
 * quote (`ai.cost`) and the model list (`ai.models`). `ai.proxy` runs the same
 * pipeline as the HTTP model routes (chat completions, responses, embeddings,
 * messages, token counts); it answers once (no streaming).
 */
import { Type } from "@sinclair/typebox";
import { chatCompletionRequest } from "../schemas/chat-completions.ts";
import { embeddingsRequest } from "../schemas/embeddings.ts";
import { messagesCountTokensRequest, messagesRequest } from "../schemas/messages.ts";
import { ApiError, badRequest } from "../lib/errors.ts";
import { estimatePromptTokens } from "../lib/token-estimate.ts";
import { headerValue } from "../lib/header-value.ts";
import { ModelName } from "../schemas/names.ts";
import { ratesFor } from "../providers/catalog/catalog.ts";
import { type ResponsesRequest, responsesRequest } from "../schemas/responses.ts";
import { chatToMessagesRequest } from "../translate/chat-to-messages.ts";
import type { Identity } from "../domain/identity.ts";
import { resolverFor } from "../pipeline/sandbox-target.ts";
import { defineOperation, type OperationDeps } from "./registry.ts";

const MICROS_PER_USD = 1_000_000;

/** Far above any context window, and low enough that a quote stays a finite number. */
const MAX_TOKENS_QUOTED = 1_000_000_000;
const TokenCount = (minimum: number) =>
  Type.Integer({
    minimum,
    maximum: MAX_TOKENS_QUOTED,
    errorMessage: `must be a whole number from ${minimum} to ${MAX_TOKENS_QUOTED.toLocaleString("en-US")}`,
  });

type ProxiedEndpoint = "chat" | "responses" | "embeddings" | "messages" | "count_tokens";

/** The provider paths `ai.proxy` forwards, by their name without `/v1/`: the chat-completions family's and the messages format's. */
const ENDPOINTS = new Map<string, ProxiedEndpoint>([
  ["chat/completions", "chat"],
  ["responses", "responses"],
  ["embeddings", "embeddings"],
  ["messages", "messages"],
  ["messages/count_tokens", "count_tokens"],
]);

/** `chat/completions`, `/v1/chat/completions`, `/v1/messages`, ... -> the call it names. */
function endpointOf(raw: string): ProxiedEndpoint {
  const path = raw.trim().replace(/^\/+/, "").replace(/^v1\//, "").replace(/\/+$/, "");
  const kind = ENDPOINTS.get(path);
  if (kind) return kind;
  throw badRequest(
    `params.endpoint must be a provider path the gateway proxies: ${[...ENDPOINTS.keys()].join(", ")} (got "${raw.slice(0, 100)}")`,
    { param: "params.endpoint" },
  );
}

/** Routes the body's model to the named provider (`provider/model`) unless it already names one. */
function withProvider(provider: string, model: unknown): unknown {
  return typeof model === "string" && !model.startsWith(`${provider}/`) ? `${provider}/${model}` : model;
}

/**
 * Whether the flat form's model is served in the messages format (the vendor, the cloud
 * platform, a custom messages-format provider): resolved as the call will resolve it,
 * so a model that does not resolve fails here with the call's own error.
 */
async function servedAsMessages(deps: OperationDeps, identity: Identity, model: unknown): Promise<boolean> {
  if (typeof model !== "string") return false;
  const resolve = resolverFor(identity);
  const target = await resolve({ catalog: deps.catalog, directory: deps.providerDirectory }, identity, model, new Headers());
  return target.format !== "chat";
}

export const aiProxy = defineOperation({
  id: "ai.proxy",
  access: "call",
  contextScope: "providers",
  summary:
    "Calls a provider: `endpoint` (chat/completions, responses, embeddings, messages, messages/count_tokens) + `body`, or flat chat fields; answers with the provider's own response plus estimated_cost (USD).",
  params: Type.Object({
    provider: Type.String({ minLength: 1, maxLength: 100 }),
    endpoint: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    body: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    model: Type.Optional(Type.String()),
    messages: Type.Optional(Type.Array(Type.Unknown())),
  }),
  async run({ deps, call, identity, responseHeaders }, p) {
    const { provider, endpoint, body, ...flat } = p;
    if ((endpoint === undefined) !== (body === undefined))
      throw badRequest("params: give endpoint and body together, or flat model and messages");
    let kind = endpoint === undefined ? "chat" : endpointOf(endpoint);
    let raw: Record<string, unknown> = { ...(body ?? flat) };
    if (raw.stream === true)
      throw badRequest(
        "params.stream must be false or absent: ai.proxy answers once; stream through /v1/chat/completions or /v1/messages instead",
        { param: "params.stream" },
      );
    raw.model = withProvider(provider, raw.model);
    // The flat form is written in chat fields; a messages-format provider still answers in its own shape, as its endpoint form does.
    if (endpoint === undefined && (await servedAsMessages(deps, identity, raw.model))) {
      raw = chatToMessagesRequest(chatCompletionRequest.parse(raw, "params"));
      kind = "messages";
    }
    // A count is not a call: the provider's count (or the gateway's estimate), never charged.
    if (kind === "count_tokens") {
      const count = await deps.calls.countTokens(call, messagesCountTokensRequest.parse(raw, "params"));
      if (responseHeaders && count.estimated) responseHeaders["x-gw-token-count"] = "estimated";
      return { input_tokens: count.inputTokens, estimated_cost: 0 };
    }
    // Each endpoint's answer is the provider's own: a messages-format provider's messages come back as messages.
    const outcome =
      kind === "chat"
        ? await deps.calls.chat(call, chatCompletionRequest.parse(raw, "params"))
        : kind === "responses"
          ? await deps.calls.responses(call, responsesRequest.parse(raw, "params") as ResponsesRequest & Record<string, unknown>)
          : kind === "messages"
            ? await deps.calls.messages(call, messagesRequest.parse(raw, "params"))
            : await deps.calls.embeddings(call, embeddingsRequest.parse(raw, "params"));
    if (outcome.type !== "json") throw new ApiError(500, "internal_server_error", "ai.proxy expected a single answer");
    // The same headers /v1/chat/completions sends: who answered, and what scanning found (counts, never values).
    if (responseHeaders) {
      responseHeaders["x-gw-provider"] = headerValue(outcome.servedBy);
      if (outcome.security) responseHeaders["x-gw-security"] = outcome.security;
      if (outcome.priceEstimated) responseHeaders["x-gw-price"] = "estimated";
      if (outcome.optimizedTokens) responseHeaders["x-gw-optimized-tokens"] = outcome.optimizedTokens;
    }
    // The answer as its endpoint would send it; parsed here, since the call path relays it as text.
    return { ...(JSON.parse(outcome.text) as Record<string, unknown>), estimated_cost: outcome.costMicros / MICROS_PER_USD };
  },
});

export const aiCost = defineOperation({
  id: "ai.cost",
  access: "read",
  summary: "Quotes a call's cost from catalog prices: token counts, or messages (+ max_tokens) to estimate them.",
  params: Type.Object({
    model: ModelName,
    prompt_tokens: Type.Optional(TokenCount(0)),
    completion_tokens: Type.Optional(TokenCount(0)),
    /** Of prompt_tokens, those read from the provider's prompt cache and those written to it. */
    cached_tokens: Type.Optional(TokenCount(0)),
    cache_write_tokens: Type.Optional(TokenCount(0)),
    messages: Type.Optional(
      Type.Array(Type.Object({ role: Type.Optional(Type.String()), content: Type.Optional(Type.Unknown()) }), { maxItems: 100_000 }),
    ),
    max_tokens: Type.Optional(TokenCount(1)),
    /** The service tier the call would be served at (`priority`, `flex`): its price where the catalog lists one. */
    service_tier: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
  }),
  async run({ deps }, p) {
    const entry = deps.catalog.model(p.model);
    if (!entry)
      throw new ApiError(404, "model_not_found", `The catalog has no price for "${p.model.slice(0, 200)}".`, { param: "params.model" });
    if (p.prompt_tokens === undefined && p.messages === undefined)
      throw badRequest("params: give prompt_tokens (and completion_tokens), or messages (and max_tokens)");
    const promptTokens = p.prompt_tokens ?? estimatePromptTokens(p.messages ?? []);
    const completionTokens = p.completion_tokens ?? p.max_tokens ?? 0;
    const read = p.cached_tokens ?? 0;
    const write = p.cache_write_tokens ?? 0;
    if (read + write > promptTokens)
      throw badRequest(
        `params: cached_tokens and cache_write_tokens are parts of the ${promptTokens} prompt tokens and cannot add up to more`,
      );
    // The accountant's prices (cache reads and writes apart), so the quote is what a call with these counts is charged.
    const price = deps.catalog.price(entry.id, entry.provider);
    // A listed tier's rates, else the long-context band's for a prompt above its threshold, else the list rates.
    const rates = ratesFor(price, promptTokens, p.service_tier);
    const pricedAt = rates === price ? "standard" : rates === price.longContext ? "long_context" : (p.service_tier as string);
    const input = ((promptTokens - read - write) * rates.inputPerMTok) / MICROS_PER_USD;
    const cache = (read * rates.cacheReadPerMTok + write * rates.cacheWritePerMTok) / MICROS_PER_USD;
    const output = (completionTokens * rates.outputPerMTok) / MICROS_PER_USD;
    return {
      model: entry.id,
      provider: entry.provider,
      promptTokens,
      completionTokens,
      cachedTokens: read,
      cacheWriteTokens: write,
      inputCostUsd: input,
      cacheCostUsd: cache,
      outputCostUsd: output,
      totalCostUsd: input + cache + output,
      /** Which rates priced it: `standard`, `long_context` (the prompt is above the model's band) or the tier's name. */
      pricedAt,
      pricesAsOf: deps.catalog.pricesAsOf,
    };
  },
});

export const aiModels = defineOperation({
  id: "ai.models",
  access: "read",
  contextScope: "providers",
  summary: "The models the caller can reach (the same list as GET /v1/models).",
  params: Type.Object({}),
  async run({ identity, deps }) {
    return { object: "list", data: await deps.models.list(identity) };
  },
});

export const aiOperations = [aiProxy, aiCost, aiModels];
