/**
 * The HTTP application: one route table, each route a surface handler run inside the
 * request runner. Unknown paths (404) and wrong methods (405) are rendered in the
 * envelope their path implies, with the same headers as every other response.
 */
import { Elysia } from "elysia";
import { ApiError, toApiError } from "../lib/errors.ts";
import { bodyLimits, SERVER_IDLE_TIMEOUT_S } from "../lib/json-body.ts";
import type { Config } from "../config.ts";
import type { MetricsRegistry } from "../lib/metrics.ts";
import type { OperationDeps, OperationRegistry } from "../ops/registry.ts";
import { storeReachable } from "../services/readiness.ts";
import { API_VERSION, VERSION } from "../version.ts";
import { unofferedEndpoint } from "./surfaces/unoffered-endpoints.ts";
import { type Surface, surfaceForPath } from "./error-envelopes.ts";
import { json } from "./json-response.ts";
import type { RequestRunner } from "./request-runner.ts";
import type { Admitted } from "./request-scope.ts";
import { gatewayHandler, gatewayReadOnly } from "./surfaces/gateway-surface.ts";
import { analyticsHandler } from "./surfaces/analytics-surface.ts";
import { etlMetricsHandler, etlOptimizeHandler } from "./surfaces/etl-surface.ts";
import { routeHandler } from "./surfaces/route-surface.ts";
import { mcpHandler } from "./surfaces/mcp-surface.ts";
import type { McpGateway } from "../mcp/mcp-gateway.ts";
import { rateLimitStatusHandler } from "./surfaces/rate-limit-surface.ts";
import { healthzHandler, metricsHandler, readyzHandler } from "./surfaces/health-surface.ts";
import { countTokensHandler, messagesHandler } from "./surfaces/messages-surface.ts";
import { responsesHandler } from "./surfaces/responses-surface.ts";
import { chatCompletionsHandler, embeddingsHandler } from "./surfaces/openai-surface.ts";
import { modelHandler, modelsHandler, modelsSurfaceOf } from "./surfaces/models-surface.ts";
import { loginLinkHandler, signOutHandler } from "./surfaces/session-surface.ts";
import { signUpCallbackHandler, signUpHandler } from "./surfaces/oidc-surface.ts";
import {
  DASHBOARD_PAGES,
  dashboardScriptHandler,
  dashboardShellHandler,
  dashboardStyleHandler,
  keepaliveHandler,
  rootHandler,
} from "./surfaces/dashboard-surface.ts";
import { describeInterface, type InterfaceDescription, openApiJsonHandler, referencePageHandler } from "./surfaces/openapi-surface.ts";
import { routeDoc } from "./openapi/route-docs.ts";
import { oidcSignInFrom } from "../services/oidc-signin.ts";
import type { Logger } from "../lib/log.ts";

/** What the routes need from the running gateway (the runtime provides it). */
export interface AppDeps {
  config: Config;
  runner: RequestRunner;
  operations: OperationRegistry;
  services: OperationDeps;
  metrics: MetricsRegistry;
  log: Logger;
  /** The MCP gateway behind `/mcp` (docs/mcp.md). */
  mcp: McpGateway;
  /** True once shutdown has begun. */
  readonly draining: boolean;
  /** What /readyz reports of shared state (Redis); null on a lone node. */
  readonly state: { health(): Record<string, string> | null };
}

/**
 * One entry of the route table. Its admission decides what runs before the handler;
 * an "identity" route's handler receives the authenticated caller (see Admitted).
 */
export type Route = Admitted & {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  surface: Surface;
  surfaceOf?: (request: Request) => Surface;
};

function routes(rt: AppDeps, description: () => InterfaceDescription): Route[] {
  const { config, operations, services, metrics } = rt;
  const sessions = {
    services,
    secureCookies: config.publicUrl?.startsWith("https:") ?? false,
    trustedOrigins: config.publicUrl ? [new URL(config.publicUrl).origin] : [],
  };
  const body = bodyLimits(config.maxBodyBytes, config.bodyTimeoutS);
  const openai = { calls: services.calls, models: services.models, body };
  const gateway = { operations, services, body };
  const analytics = { store: services.store, now: services.now };
  const etl = { store: services.store, catalog: services.catalog, now: services.now, body };
  const oidc = {
    signIn: oidcSignInFrom(config, services.box, services.now),
    services,
    publicUrl: config.publicUrl,
    secureCookies: sessions.secureCookies,
    log: rt.log,
  };
  return [
    {
      method: "GET",
      path: "/",
      surface: "general",
      admission: "address",
      handler: rootHandler(() => json({ name: "gateway", version: VERSION, apiVersion: API_VERSION })),
    },
    ...DASHBOARD_PAGES.map(
      (page): Route => ({
        method: "GET",
        path: page ? `/dashboard/${page}` : "/dashboard",
        surface: "general",
        admission: "address",
        handler: dashboardShellHandler({ identityProvider: oidc.signIn !== null }),
      }),
    ),
    { method: "GET", path: "/dashboard/assets/app.js", surface: "general", admission: "address", handler: dashboardScriptHandler() },
    { method: "GET", path: "/dashboard/assets/app.css", surface: "general", admission: "address", handler: dashboardStyleHandler() },
    { method: "POST", path: "/dashboard/keepalive", surface: "general", admission: "address", handler: keepaliveHandler(sessions) },
    { method: "GET", path: "/healthz", surface: "general", admission: "free", handler: healthzHandler() },
    {
      method: "GET",
      path: "/readyz",
      surface: "general",
      admission: "free",
      handler: readyzHandler(
        () => storeReachable(services),
        () => rt.draining,
        () => rt.state.health(),
      ),
    },
    { method: "GET", path: "/metrics", surface: "general", admission: "free", handler: metricsHandler(metrics, config.metricsToken) },
    { method: "GET", path: "/openapi.json", surface: "general", admission: "address", handler: openApiJsonHandler(description) },
    { method: "GET", path: "/docs", surface: "general", admission: "address", handler: referencePageHandler(description) },
    {
      method: "POST",
      path: "/v1/chat/completions",
      surface: "openai",
      admission: "identity",
      handler: chatCompletionsHandler(openai),
      deferCharge: true,
    },
    {
      method: "POST",
      path: "/v1/embeddings",
      surface: "openai",
      admission: "identity",
      handler: embeddingsHandler(openai),
      deferCharge: true,
    },
    {
      method: "GET",
      path: "/v1/models",
      surface: "openai",
      surfaceOf: modelsSurfaceOf,
      admission: "identity",
      handler: modelsHandler(openai),
    },
    {
      method: "GET",
      path: "/v1/models/:id",
      surface: "openai",
      surfaceOf: modelsSurfaceOf,
      admission: "identity",
      handler: modelHandler(openai),
    },
    {
      method: "POST",
      path: "/v1/responses",
      surface: "openai",
      admission: "identity",
      handler: responsesHandler(openai),
      deferCharge: true,
    },
    {
      method: "POST",
      path: "/v1/messages",
      surface: "messages",
      admission: "identity",
      handler: messagesHandler(openai),
      deferCharge: true,
    },
    { method: "POST", path: "/v1/messages/count_tokens", surface: "messages", admission: "identity", handler: countTokensHandler(openai) },
    {
      method: "POST",
      path: "/api/v1/gateway",
      surface: "gateway",
      admission: "identity",
      handler: gatewayHandler(gateway),
      readOnly: gatewayReadOnly(gateway),
    },
    {
      method: "GET",
      path: "/api/byok/analytics/forecast/:period",
      surface: "general",
      admission: "identity",
      handler: analyticsHandler(analytics, "forecast"),
    },
    {
      method: "GET",
      path: "/api/byok/analytics/anomalies",
      surface: "general",
      admission: "identity",
      handler: analyticsHandler(analytics, "anomalies"),
    },
    {
      method: "GET",
      path: "/api/byok/analytics/trends/:period",
      surface: "general",
      admission: "identity",
      handler: analyticsHandler(analytics, "trends"),
    },
    {
      method: "GET",
      path: "/api/byok/analytics/budget",
      surface: "general",
      admission: "identity",
      handler: analyticsHandler(analytics, "budget"),
    },
    {
      method: "GET",
      path: "/api/byok/analytics/providers/:period",
      surface: "general",
      admission: "identity",
      handler: analyticsHandler(analytics, "providers"),
    },
    { method: "POST", path: "/api/user/etl/optimize", surface: "general", admission: "identity", handler: etlOptimizeHandler(etl) },
    { method: "GET", path: "/api/user/etl-metrics", surface: "general", admission: "identity", handler: etlMetricsHandler(etl) },
    { method: "POST", path: "/api/byok/route", surface: "general", admission: "identity", handler: routeHandler(openai) },
    {
      method: "GET",
      path: "/api/user/rate-limit-status",
      surface: "general",
      admission: "identity",
      handler: rateLimitStatusHandler({ store: services.store, rateUsage: services.rateUsage, now: services.now }),
    },
    ...(["POST", "GET", "DELETE"] as const).map(
      // The one route that takes a tool grant as well: a provider calling back for a hosted `mcp` tool (docs/mcp.md).
      (method): Route => ({ method, path: "/mcp", surface: "general", admission: "identity-or-tool-grant", handler: mcpHandler(rt.mcp) }),
    ),
    { method: "GET", path: "/signup", surface: "general", admission: "address", handler: signUpHandler(oidc) },
    { method: "GET", path: "/signup/callback", surface: "general", admission: "address", handler: signUpCallbackHandler(oidc) },
    { method: "GET", path: "/auth/link", surface: "general", admission: "address", handler: loginLinkHandler(sessions) },
    { method: "POST", path: "/sign-out", surface: "general", admission: "address", handler: signOutHandler(sessions) },
  ];
}

/** The app's interface description, from its own route table and operation registry. */
export function appInterface(table: readonly Route[], operations: OperationRegistry): InterfaceDescription {
  return describeInterface(
    table.map((r) => ({ method: r.method, path: r.path, ...routeDoc(r.method, r.path) })),
    operations.described(),
  );
}

/**
 * The body limit to give Bun's server when the app listens: none it could reach. Bun refuses
 * a body over its own limit with a bare 413 (no envelope, no rate-limit headers, no request
 * id) before the app sees the request; the surfaces bound every read themselves
 * (`GW_MAX_BODY_BYTES`, the declared length checked before reading), and Bun drains a body
 * the app did not read without holding it. Above every length Bun's parser accepts (up to
 * 2^59 - 1; longer is its bare 400): Number.MAX_SAFE_INTEGER left 2^53 to 2^59 to its 413.
 */
export const SERVER_MAX_REQUEST_BODY = 2 ** 62;

export function createApp(rt: AppDeps) {
  let description: InterfaceDescription | null = null;
  const table: Route[] = routes(rt, () => (description ??= appInterface(table, rt.operations)));
  const allowed = new Map<string, string[]>();
  for (const r of table) allowed.set(r.path, [...(allowed.get(r.path) ?? []), r.method]);

  // Elysia's compiled handler (its default, written out): measured at ~0.5 µs a request over
  // Bun.serve itself, against ~7 µs for its dynamic one (bench/elysia-aot.bench.ts).
  // The connection's idle timeout, written out (Elysia's default): a body reader holds it off
  // for its request while the body comes, and gives it back when the read ends (json-body.ts).
  const app = new Elysia({ name: "gateway", aot: true, serve: { idleTimeout: SERVER_IDLE_TIMEOUT_S } });
  for (const r of table) {
    // parse: "none" — bodies are read by the surfaces under the size limit, with our own errors.
    const target = { ...r, route: r.path };
    // The server read from the app, not the context: a handler that names `server` makes Elysia
    // define a getter on every request's context (its compiled handler reads the handler's parameters).
    app.route(r.method, r.path, ({ request }) => rt.runner.run(target, request, app.server), { parse: "none" });
  }
  app.onError(({ code, error, request }) => {
    const path = new URL(request.url).pathname;
    let failure: ApiError;
    if (code === "NOT_FOUND") {
      const methods = allowed.get(path);
      failure = methods
        ? new ApiError(405, "method_not_allowed", `${request.method} is not allowed on ${path}; use ${methods.join(" or ")}.`, {
            headers: { allow: methods.join(", ") },
          })
        : new ApiError(404, "not_found", unofferedEndpoint(path) ?? `No route for ${request.method} ${path}.`);
    } else {
      failure = toApiError(error);
    }
    const fail = () => {
      throw failure;
    };
    return rt.runner.run({ surface: surfaceForPath(path), route: "unmatched", admission: "address", handler: fail }, request, app.server);
  });
  return app;
}
