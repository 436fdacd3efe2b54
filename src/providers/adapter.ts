/**
 * The adapter contract: one implementation per wire family, each turning a call in
 * its own format into an upstream HTTP request. The required part is small (chat);
 * embeddings and model listing are separate capabilities an adapter may add.
 */
import type { Target } from "./target.ts";

/** An HTTP request to a provider, before it is sent. */
export interface UpstreamRequest {
  url: string;
  headers: Record<string, string>;
  body?: string;
  method?: "GET" | "POST";
}

export interface ChatAdapter {
  /** The request for a chat call in this family's own wire format. */
  chatRequest(target: Target, body: Record<string, unknown>): UpstreamRequest;
}

export interface EmbeddingsCapable {
  embeddingsRequest(target: Target, body: Record<string, unknown>): UpstreamRequest;
}

export interface ModelListing {
  modelsRequest(target: Target): UpstreamRequest;
  /** The model ids in the provider's list response. */
  parseModels(body: unknown): string[];
}

export type ProviderAdapter = ChatAdapter & Partial<EmbeddingsCapable> & Partial<ModelListing>;

export function canEmbed(a: ProviderAdapter): a is ChatAdapter & EmbeddingsCapable {
  return typeof a.embeddingsRequest === "function";
}

export function canListModels(a: ProviderAdapter): a is ChatAdapter & ModelListing {
  return typeof a.modelsRequest === "function" && typeof a.parseModels === "function";
}
