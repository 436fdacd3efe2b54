/**
 * The adapter contract: one implementation per wire family. An adapter speaks one
 * wire format (`chat` or `messages`) and builds the upstream request for a call
 * already in that format; the gateway translates between formats, not adapters.
 * Embeddings and model listing are separate capabilities an adapter may add.
 */
import type { Target } from "./target.ts";

/** An HTTP request to a provider, before it is sent. */
export interface UpstreamRequest {
  url: string;
  headers: Record<string, string>;
  body?: string;
  method?: "GET" | "POST";
  /**
   * Answered in process instead of over the network: the sandbox's simulator, which
   * answers as a provider would, so a test key's call takes the whole path but the wire.
   */
  local?: () => Response | Promise<Response>;
}

export type WireFamily = "chat" | "messages";

/** A call's body as its provider gets it: naming the provider's own model id, copied only when that differs from the caller's. */
export function providerBody(body: Record<string, unknown>, model: string): string {
  return JSON.stringify(body.model === model ? body : { ...body, model });
}

export interface CallOptions {
  stream: boolean;
  /** The caller's request headers (for version and beta headers that pass through). */
  headers: Headers;
}

export interface ProviderAdapter {
  readonly wire: WireFamily;
  /** The upstream request for a call in this adapter's wire format (signing may be async). */
  request(target: Target, body: Record<string, unknown>, opts: CallOptions): UpstreamRequest | Promise<UpstreamRequest>;
  /**
   * Turns a stream that is not server-sent events (the cloud platform's binary frames) into SSE of this wire format;
   * an event longer than `maxEventBytes` errors the stream (SseEventTooLarge) instead of being gathered.
   */
  sseBody?(body: ReadableStream<Uint8Array>, maxEventBytes?: number): ReadableStream<Uint8Array>;
}

export interface EmbeddingsCapable {
  embeddingsRequest(target: Target, body: Record<string, unknown>): UpstreamRequest;
}

export interface ModelListing {
  modelsRequest(target: Target): UpstreamRequest;
  /** The model ids in the provider's list response (one page of it, where the provider pages it). */
  parseModels(body: unknown): string[];
  /** Where the provider pages its list: the request for the page after this one, or null when this was the last. */
  nextModelsRequest?(target: Target, body: unknown): UpstreamRequest | null;
}

/** Providers of the messages format that count a prompt's tokens themselves (`/v1/messages/count_tokens`). */
export interface TokenCounting {
  countTokensRequest(target: Target, body: Record<string, unknown>, opts: CallOptions): UpstreamRequest;
}

/** Chat-format providers that serve the Responses API (`POST responses`); the spec says which kinds do. */
export interface ResponsesCapable {
  responsesRequest(target: Target, body: Record<string, unknown>): UpstreamRequest;
}

export function canRespond(a: ProviderAdapter): a is ProviderAdapter & ResponsesCapable {
  return typeof (a as Partial<ResponsesCapable>).responsesRequest === "function";
}

export function canCountTokens(a: ProviderAdapter): a is ProviderAdapter & TokenCounting {
  return typeof (a as Partial<TokenCounting>).countTokensRequest === "function";
}

export function canEmbed(a: ProviderAdapter): a is ProviderAdapter & EmbeddingsCapable {
  return typeof (a as Partial<EmbeddingsCapable>).embeddingsRequest === "function";
}

export function canListModels(a: ProviderAdapter): a is ProviderAdapter & ModelListing {
  const m = a as Partial<ModelListing>;
  return typeof m.modelsRequest === "function" && typeof m.parseModels === "function";
}
