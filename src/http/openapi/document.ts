/**
 * The interface description (OpenAPI 3.1, version 1.0.0 as the specification says),
 * built from the same TypeBox schemas the validators compile, so the document cannot
 * drift from what the gateway accepts. Each route of the app contributes its path,
 * summary, credentials and body schema; the gateway endpoint also lists every
 * operation with its `params` schema and the role it needs.
 */
import type { TSchema } from "@sinclair/typebox";
import { API_VERSION } from "../../version.ts";

export type RouteAuth = "apiKey" | "apiKeyOrSession" | "session" | "metricsToken" | "none";

export interface DocumentedRoute {
  method: "GET" | "POST" | "DELETE" | "PUT" | "PATCH";
  /** Elysia style (`/v1/models/:id`); written in OpenAPI style (`/v1/models/{id}`). */
  path: string;
  summary: string;
  tag: string;
  auth: RouteAuth;
  body?: TSchema;
  query?: Record<string, TSchema>;
  /** Status -> description; 200 is assumed when absent. */
  responses?: Record<string, string>;
  /** Content types of a success answer besides JSON (`text/event-stream` for streams). */
  produces?: string[];
}

export interface DocumentedOperation {
  id: string;
  summary: string;
  params: TSchema;
  role?: "admin";
}

/** A TypeBox schema as plain JSON Schema: symbols drop out in JSON, the validators' own wording keyword too. */
export function jsonSchema(schema: TSchema): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema, (key, value) => (key === "errorMessage" ? undefined : value)));
}

const SECURITY: Record<RouteAuth, Record<string, string[]>[]> = {
  apiKey: [{ apiKey: [] }, { apiKeyHeader: [] }],
  apiKeyOrSession: [{ apiKey: [] }, { apiKeyHeader: [] }, { session: [] }],
  session: [{ session: [] }],
  metricsToken: [{ metricsToken: [] }, {}],
  none: [],
};

const ERRORS: Record<string, string> = {
  "400": "Invalid request: the message names the field and the allowed values.",
  "401": "Missing or invalid key or session.",
  "403": "Refused by policy or role.",
  "429": "Rate limit or spend cap; see the X-RateLimit-* headers.",
};

function openApiPath(path: string): { path: string; params: string[] } {
  const params: string[] = [];
  const out = path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    params.push(name);
    return `{${name}}`;
  });
  return { path: out, params };
}

function operationObject(route: DocumentedRoute, operations: readonly DocumentedOperation[]) {
  const { params } = openApiPath(route.path);
  const parameters = [
    ...params.map((name) => ({ name, in: "path", required: true, schema: { type: "string" } })),
    ...Object.entries(route.query ?? {}).map(([name, schema]) => ({ name, in: "query", required: false, schema: jsonSchema(schema) })),
  ];
  const success: Record<string, unknown> = { "application/json": {} };
  for (const type of route.produces ?? []) success[type] = {};
  const responses: Record<string, unknown> = { "200": { description: route.responses?.["200"] ?? "Success.", content: success } };
  for (const [status, description] of Object.entries(route.responses ?? {})) if (status !== "200") responses[status] = { description };
  if (route.auth !== "none") for (const [status, description] of Object.entries(ERRORS)) responses[status] ??= { description };
  const op: Record<string, unknown> = {
    operationId: `${route.method.toLowerCase()}${route.path.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ""))}`,
    summary: route.summary,
    tags: [route.tag],
    security: SECURITY[route.auth],
    responses,
  };
  if (parameters.length > 0) op.parameters = parameters;
  if (route.body) op.requestBody = { required: true, content: { "application/json": { schema: jsonSchema(route.body) } } };
  if (route.path === "/api/v1/gateway" && operations.length > 0) {
    op.description = `One entrypoint for non-model operations. Operations:\n\n${operations.map((o) => `- \`${o.id}\`${o.role ? " (admin)" : ""}: ${o.summary}`).join("\n")}`;
    op.requestBody = {
      required: true,
      content: {
        "application/json": {
          schema: {
            oneOf: operations.map((o) => ({
              type: "object",
              title: o.id,
              required: ["operation"],
              properties: {
                operation: { const: o.id },
                params: jsonSchema(o.params),
                context: { type: "object", properties: { applicationId: { type: "string" }, scope: { enum: ["user", "organization"] } } },
              },
            })),
          },
        },
      },
    };
  }
  return op;
}

export function openApiDocument(routes: readonly DocumentedRoute[], operations: readonly DocumentedOperation[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const { path } = openApiPath(route.path);
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operationObject(route, operations);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "gateway",
      version: API_VERSION,
      description:
        "A bring-your-own-key AI gateway: OpenAI-style and Anthropic-style model endpoints with mandatory policy checks, and an operation-routed admin endpoint.",
    },
    tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        apiKey: { type: "http", scheme: "bearer", description: "A gateway API key (`gw_live_...` or `gw_test_...`)." },
        apiKeyHeader: { type: "apiKey", in: "header", name: "x-api-key", description: "The same key, as messages-format clients send it." },
        session: {
          type: "apiKey",
          in: "cookie",
          name: "gw_session",
          description: "The dashboard's session cookie; state-changing calls also need a same-origin Origin.",
        },
        metricsToken: { type: "http", scheme: "bearer", description: "GW_METRICS_TOKEN, when the operator set one." },
      },
    },
  };
}
