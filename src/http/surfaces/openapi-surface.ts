/**
 * `GET /openapi.json` and `GET /docs`: the interface description of this app's own
 * route table and operation registry, built once when the app is (both are fixed by
 * then), and served from memory.
 */
import type { DocumentedOperation, DocumentedRoute } from "../openapi/document.ts";
import { openApiDocument } from "../openapi/document.ts";
import { REFERENCE_PAGE_CSP, referencePage } from "../openapi/reference-page.ts";

export interface InterfaceDescription {
  document: ReturnType<typeof openApiDocument>;
  json: string;
  html: string;
}

export function describeInterface(routes: readonly DocumentedRoute[], operations: readonly DocumentedOperation[]): InterfaceDescription {
  const document = openApiDocument(routes, operations);
  return { document, json: JSON.stringify(document), html: referencePage(document) };
}

export function openApiJsonHandler(description: () => InterfaceDescription) {
  return async (): Promise<Response> =>
    new Response(description().json, { headers: { "content-type": "application/json", "cache-control": "no-cache" } });
}

export function referencePageHandler(description: () => InterfaceDescription) {
  return async (): Promise<Response> =>
    new Response(description().html, {
      headers: {
        "content-type": "text/html; charset=utf-8",
        "content-security-policy": REFERENCE_PAGE_CSP,
        "x-content-type-options": "nosniff",
        "x-frame-options": "DENY",
        "referrer-policy": "same-origin",
        "cache-control": "no-cache",
      },
    });
}
