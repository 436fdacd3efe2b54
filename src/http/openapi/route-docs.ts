/**
 * What the interface description says of each route of the app: summary, tag,
 * credentials, and the TypeBox schema its surface validates the body with (the same
 * object, so the document cannot drift from the validators). Keyed by "METHOD path" as
 * the route table writes it; a route missing here is documented as UNDOCUMENTED, which
 * the app's document test refuses.
 */
import { Type } from "@sinclair/typebox";
import { ChatCompletionRequest } from "../../schemas/chat-completions.ts";
import { EmbeddingsRequest } from "../../schemas/embeddings.ts";
import { MessagesCountTokensRequest, MessagesRequest } from "../../schemas/messages.ts";
import { ResponsesRequest } from "../../schemas/responses.ts";
import { OptimizeRequest } from "../surfaces/etl-surface.ts";
import { RouteParams } from "../../ops/route-ops.ts";
import type { DocumentedRoute } from "./document.ts";

export type RouteDoc = Omit<DocumentedRoute, "method" | "path">;

export const UNDOCUMENTED = "Undocumented route.";

const STREAM = ["text/event-stream"];
const HTML = ["text/html"];
const period = Type.Union([Type.Literal("7d"), Type.Literal("30d"), Type.Literal("90d")]);
const analytics = (summary: string): RouteDoc => ({
  summary,
  tag: "analytics",
  auth: "apiKeyOrSession",
  query: { provider: Type.String(), application: Type.String() },
});
const anthropicPaging = { limit: Type.Integer({ minimum: 1, maximum: 1000 }), after_id: Type.String(), before_id: Type.String() };

const DOCS: Record<string, RouteDoc> = {
  "GET /": { summary: "Name and version of the gateway (a browser is sent to the dashboard).", tag: "operations", auth: "none" },
  "GET /healthz": { summary: "Liveness: the process answers.", tag: "operations", auth: "none" },
  "GET /readyz": {
    summary: "Readiness: the store (and shared state) is reachable and the gateway is not draining.",
    tag: "operations",
    auth: "none",
    responses: { "503": "Not ready." },
  },
  "GET /metrics": { summary: "Prometheus metrics.", tag: "operations", auth: "metricsToken", produces: ["text/plain"] },
  "GET /openapi.json": { summary: "This interface description (OpenAPI 3.1).", tag: "operations", auth: "none" },
  "GET /docs": { summary: "This interface description as a readable page.", tag: "operations", auth: "none", produces: HTML },
  "POST /v1/chat/completions": {
    summary: "Chat completion, plain or streamed, through every policy stage; translated for messages-format providers.",
    tag: "model",
    auth: "apiKey",
    body: ChatCompletionRequest,
    produces: STREAM,
  },
  "POST /v1/responses": {
    summary: "Responses API, plain or streamed (typed events); translated to chat completions for every provider.",
    tag: "model",
    auth: "apiKey",
    body: ResponsesRequest,
    produces: STREAM,
  },
  "POST /v1/embeddings": { summary: "Embeddings from a provider that offers them.", tag: "model", auth: "apiKey", body: EmbeddingsRequest },
  "GET /v1/models": {
    summary: "Models this key may use; the Anthropic shape (paginated) when the request carries anthropic-version or x-api-key.",
    tag: "model",
    auth: "apiKey",
    query: anthropicPaging,
  },
  "GET /v1/models/:id": {
    summary: "One model this key may use, in the caller's shape; 404 for an unknown or unauthorized model.",
    tag: "model",
    auth: "apiKey",
    responses: { "404": "No such model for this key." },
  },
  "POST /v1/messages": {
    summary: "Messages format, plain or streamed, for messages-format providers.",
    tag: "model",
    auth: "apiKey",
    body: MessagesRequest,
    produces: STREAM,
  },
  "POST /v1/messages/count_tokens": {
    summary:
      "Counts a messages request's input tokens: the vendor's count, or the gateway's tokenizer (x-gw-token-count: estimated). Not charged.",
    tag: "model",
    auth: "apiKey",
    body: MessagesCountTokensRequest,
  },
  "POST /api/v1/gateway": {
    summary: "Operations: one entrypoint for everything that is not a model call.",
    tag: "gateway",
    auth: "apiKeyOrSession",
  },
  "GET /api/byok/analytics/forecast/:period": { ...analytics("Spend forecast for the period."), query: { timeframe: period } },
  "GET /api/byok/analytics/anomalies": analytics("Unusual spend or traffic."),
  "GET /api/byok/analytics/trends/:period": analytics("Spend and usage trends for the period."),
  "GET /api/byok/analytics/budget": analytics("Budget and caps against spend so far."),
  "GET /api/byok/analytics/providers/:period": analytics("Spend by provider for the period."),
  "POST /api/user/etl/optimize": {
    summary: "Optimizes a document's text for model context; only the figures are kept.",
    tag: "analytics",
    auth: "apiKeyOrSession",
    body: OptimizeRequest,
  },
  "GET /api/user/etl-metrics": { summary: "The organization's document-optimization figures.", tag: "analytics", auth: "apiKeyOrSession" },
  "POST /api/byok/route": {
    summary:
      "Routes a chat request by strategy (cost, speed, quality, balanced) with fallback; answers the choice, its reasons, the alternatives and the completion.",
    tag: "model",
    auth: "apiKeyOrSession",
    body: RouteParams,
  },
  "GET /api/user/rate-limit-status": {
    summary: "Rate-limit status of the caller and the organization's providers.",
    tag: "analytics",
    auth: "apiKeyOrSession",
  },
  "POST /mcp": {
    summary:
      "MCP Streamable HTTP: JSON-RPC messages to the MCP gateway (docs/mcp.md); answers JSON or an event stream. Also takes, as its bearer token, the tool grant a model provider was given for a hosted `mcp` tool.",
    tag: "mcp",
    auth: "apiKeyOrSession",
    produces: STREAM,
  },
  "GET /mcp": {
    summary: "MCP Streamable HTTP: the session's event stream for server notifications (`Mcp-Session-Id`).",
    tag: "mcp",
    auth: "apiKeyOrSession",
    produces: STREAM,
  },
  "DELETE /mcp": { summary: "MCP Streamable HTTP: ends the session named by `Mcp-Session-Id`.", tag: "mcp", auth: "apiKeyOrSession" },
  "GET /signup": {
    summary: "Sign-in with the identity provider (redirect).",
    tag: "sign-in",
    auth: "none",
    produces: HTML,
    responses: { "302": "To the identity provider." },
  },
  "GET /signup/callback": {
    summary: "The identity provider's return: starts a session.",
    tag: "sign-in",
    auth: "none",
    produces: HTML,
    responses: { "302": "To the dashboard." },
  },
  "GET /auth/link": {
    summary: "A one-time sign-in link: starts a session.",
    tag: "sign-in",
    auth: "none",
    produces: HTML,
    responses: { "302": "To the dashboard." },
  },
  "POST /sign-out": { summary: "Ends the session (from the gateway's own origin only).", tag: "sign-in", auth: "none", produces: HTML },
  "POST /dashboard/keepalive": { summary: "Renews a live session's cookie.", tag: "dashboard", auth: "session" },
  "GET /dashboard/assets/app.js": { summary: "The dashboard's script.", tag: "dashboard", auth: "none", produces: ["text/javascript"] },
  "GET /dashboard/assets/app.css": { summary: "The dashboard's stylesheet.", tag: "dashboard", auth: "none", produces: ["text/css"] },
};

export function routeDoc(method: string, path: string): RouteDoc {
  const doc = DOCS[`${method} ${path}`];
  if (doc) return doc;
  // Every dashboard page is the same shell; its data comes through the API with the session.
  if (method === "GET" && (path === "/dashboard" || path.startsWith("/dashboard/")))
    return { summary: "A dashboard page (the shell; data through the API).", tag: "dashboard", auth: "none", produces: HTML };
  return { summary: UNDOCUMENTED, tag: "other", auth: "apiKeyOrSession" };
}
