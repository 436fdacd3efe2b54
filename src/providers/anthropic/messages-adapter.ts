/**
 * The messages family, spoken to the vendor directly (and to custom servers that
 * speak it): `POST {base}/v1/messages` with `x-api-key` and the version header; the
 * caller's vendor headers (`anthropic-*`) pass through.
 */
import {
  type CallOptions,
  type ModelListing,
  type ProviderAdapter,
  providerBody,
  type TokenCounting,
  type UpstreamRequest,
} from "../adapter.ts";
import { endpointUrl } from "../specs.ts";
import type { Target } from "../target.ts";

/** The version header the vendor documents; what the gateway sends when the caller sends none. */
export const DEFAULT_MESSAGES_VERSION = "2023-06-01";

const VENDOR_PREFIX = "anthropic-";

/**
 * The vendor headers a call carries upstream: every `anthropic-*` header the caller
 * sent (version, beta flags and whatever the vendor adds next), and always a version,
 * from `anthropic-version`, else the specification's `msg-version`, else the default.
 * Only that prefix passes: the caller's gateway credentials (`x-api-key`,
 * `authorization`) and everything else stay here; the provider key is added apart.
 */
export function vendorHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  // Header names come lower-cased from Headers.
  headers.forEach((value, name) => {
    if (name.startsWith(VENDOR_PREFIX)) out[name] = value;
  });
  out["anthropic-version"] ??= headers.get("msg-version") ?? DEFAULT_MESSAGES_VERSION;
  return out;
}

function auth(t: Target): Record<string, string> {
  return t.credentials.type === "api-key" ? { "x-api-key": t.credentials.apiKey } : {};
}

/** One page of the vendor's model list, the largest it serves, after the cursor in `after`. */
function modelsPage(t: Target, after: string): UpstreamRequest {
  return {
    url: endpointUrl(t, `v1/models?limit=1000${after}`),
    method: "GET",
    headers: { ...auth(t), "anthropic-version": DEFAULT_MESSAGES_VERSION },
  };
}

export const messagesAdapter = {
  wire: "messages",
  request(t: Target, body: Record<string, unknown>, opts: CallOptions): UpstreamRequest {
    return {
      url: endpointUrl(t, "v1/messages"),
      method: "POST",
      headers: { "content-type": "application/json", ...auth(t), ...vendorHeaders(opts.headers) },
      body: providerBody(body, t.model),
    };
  },
  countTokensRequest(t: Target, body: Record<string, unknown>, opts: CallOptions): UpstreamRequest {
    return { ...messagesAdapter.request(t, body, opts), url: endpointUrl(t, "v1/messages/count_tokens") };
  },
  // The vendor pages its list, 20 a page unless asked (the largest page is 1000): without
  // `limit` a newer model past the twentieth would never be listed (ModelListParams,
  // anthropics/anthropic-sdk-typescript src/resources/models.ts).
  modelsRequest: (t: Target) => modelsPage(t, ""),
  // The next page starts after the last id of this one (`after_id`), while the vendor says it `has_more`.
  nextModelsRequest(t: Target, body: unknown): UpstreamRequest | null {
    const page = body as { has_more?: unknown; last_id?: unknown } | null;
    if (page?.has_more !== true || typeof page.last_id !== "string" || page.last_id === "") return null;
    return modelsPage(t, `&after_id=${encodeURIComponent(page.last_id)}`);
  },
  parseModels(body: unknown) {
    const data = (body as { data?: unknown })?.data;
    return Array.isArray(data) ? data.map((m) => (m as { id?: unknown })?.id).filter((id): id is string => typeof id === "string") : [];
  },
} satisfies ProviderAdapter & ModelListing & TokenCounting;
