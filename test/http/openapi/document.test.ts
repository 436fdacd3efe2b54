/** The document builder on its own; the test that every route of the app is documented runs against the app. */
import { expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import { Validator } from "@seriousme/openapi-schema-validator";
import { jsonSchema, openApiDocument } from "../../../src/http/openapi/document.ts";
import { referencePage } from "../../../src/http/openapi/reference-page.ts";
import { ChatCompletionRequest } from "../../../src/schemas/chat-completions.ts";

const routes = [
  {
    method: "POST" as const,
    path: "/v1/chat/completions",
    summary: "Chat",
    tag: "model",
    auth: "apiKey" as const,
    body: ChatCompletionRequest,
    produces: ["text/event-stream"],
  },
  { method: "GET" as const, path: "/v1/models/:id", summary: "One model", tag: "model", auth: "apiKey" as const },
  {
    method: "GET" as const,
    path: "/api/byok/analytics/forecast/:period",
    summary: "Forecast",
    tag: "analytics",
    auth: "apiKeyOrSession" as const,
    query: { timeframe: Type.Union([Type.Literal("7d"), Type.Literal("30d")]) },
  },
  { method: "POST" as const, path: "/api/v1/gateway", summary: "Operations", tag: "gateway", auth: "apiKeyOrSession" as const },
  { method: "GET" as const, path: "/healthz", summary: "Up", tag: "operations", auth: "none" as const },
];
const operations = [
  { id: "user.me", summary: "Who am I", params: Type.Object({}) },
  { id: "org.api-key.revoke", summary: "Revoke", params: Type.Object({ keyId: Type.String() }), role: "admin" as const },
];

test("a valid OpenAPI 3.1 document, version 1.0.0", async () => {
  const doc = openApiDocument(routes, operations);
  const result = await new Validator().validate(doc as never);
  expect(result.errors ?? []).toEqual([]);
  expect(result.valid).toBe(true);
  expect(doc.openapi).toBe("3.1.0");
  expect(doc.info.version).toBe("1.0.0");
});

test("paths in OpenAPI style with their parameters; bodies are the validators' own schemas", () => {
  const doc = openApiDocument(routes, operations) as any;
  expect(Object.keys(doc.paths)).toEqual([
    "/v1/chat/completions",
    "/v1/models/{id}",
    "/api/byok/analytics/forecast/{period}",
    "/api/v1/gateway",
    "/healthz",
  ]);
  expect(doc.paths["/v1/models/{id}"].get.parameters).toEqual([{ name: "id", in: "path", required: true, schema: { type: "string" } }]);
  expect(doc.paths["/v1/chat/completions"].post.requestBody.content["application/json"].schema).toEqual(jsonSchema(ChatCompletionRequest));
  expect(doc.paths["/v1/chat/completions"].post.responses["200"].content).toHaveProperty("text/event-stream");
  expect(JSON.stringify(doc)).not.toContain("errorMessage");
  expect(doc.paths["/healthz"].get.security).toEqual([]);
});

test("the gateway endpoint lists every operation with its params schema and role", () => {
  const doc = openApiDocument(routes, operations) as any;
  const post = doc.paths["/api/v1/gateway"].post;
  expect(post.requestBody.content["application/json"].schema.oneOf.map((s: any) => s.properties.operation.const)).toEqual([
    "user.me",
    "org.api-key.revoke",
  ]);
  expect(post.description).toContain("`org.api-key.revoke` (admin)");
});

test("the reference page shows every path and escapes what it prints", () => {
  const doc = openApiDocument(
    [...routes, { method: "GET" as const, path: "/x", summary: "<script>alert(1)</script>", tag: "other", auth: "none" as const }],
    operations,
  );
  const html = referencePage(doc);
  for (const p of Object.keys(doc.paths)) expect(html).toContain(`<code>${p}</code>`);
  expect(html).not.toContain("<script>");
  expect(html).toContain("&lt;script&gt;");
});
