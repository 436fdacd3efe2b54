/**
 * The messages family, spoken to the vendor directly (and to custom servers that
 * speak it): `POST {base}/v1/messages` with `x-api-key` and the version header; the
 * caller's version and beta headers pass through.
 */
import { DEFAULT_MESSAGES_VERSION } from "../../api/messages.ts";
import type { CallOptions, ModelListing, ProviderAdapter, UpstreamRequest } from "../adapter.ts";
import type { Target } from "../target.ts";

/** The version (`anthropic-version`, or the specification's `msg-version`) and beta headers a call carries upstream. */
export function versionHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = { "anthropic-version": headers.get("anthropic-version") ?? headers.get("msg-version") ?? DEFAULT_MESSAGES_VERSION };
  const beta = headers.get("anthropic-beta");
  if (beta) out["anthropic-beta"] = beta;
  return out;
}

function auth(t: Target): Record<string, string> {
  return t.credentials.type === "api-key" ? { "x-api-key": t.credentials.apiKey } : {};
}

export const messagesAdapter = {
  wire: "messages",
  request(t: Target, body: Record<string, unknown>, opts: CallOptions): UpstreamRequest {
    return {
      url: `${t.baseUrl}/v1/messages`,
      method: "POST",
      headers: { "content-type": "application/json", ...auth(t), ...versionHeaders(opts.headers) },
      body: JSON.stringify({ ...body, model: t.model }),
    };
  },
  modelsRequest: (t: Target) => ({ url: `${t.baseUrl}/v1/models`, method: "GET", headers: { ...auth(t), "anthropic-version": DEFAULT_MESSAGES_VERSION } }),
  parseModels(body: unknown) {
    const data = (body as { data?: unknown })?.data;
    return Array.isArray(data) ? data.map((m) => (m as { id?: unknown })?.id).filter((id): id is string => typeof id === "string") : [];
  },
} satisfies ProviderAdapter & ModelListing;
