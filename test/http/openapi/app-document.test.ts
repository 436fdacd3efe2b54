/** The app's own interface description: every route the app registers is in it, it validates, and /docs shows it without any outside asset. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import { UNDOCUMENTED } from "../../../src/http/openapi/route-docs.ts";
import { REFERENCE_PAGE_CSP } from "../../../src/http/openapi/reference-page.ts";
import { stopAndRemove, tempDataDir } from "../../support/gateway-process.ts";
import { type InProcessGateway, initOrgInProcess, startGatewayInProcess } from "../../support/in-process.ts";

let gw: InProcessGateway;
let doc: any;

beforeAll(async () => {
  const dataDir = tempDataDir();
  await initOrgInProcess(dataDir);
  gw = await startGatewayInProcess({ dataDir });
  const res = await gw.handle(new Request("http://gw.test/openapi.json"));
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/json");
  doc = await res.json();
});

afterAll(() => stopAndRemove(gw));

test("a valid OpenAPI 3.1 document, version 1.0.0, anonymous", async () => {
  const result = await new Validator().validate(doc);
  expect(result.errors ?? []).toEqual([]);
  expect(result.valid).toBe(true);
  expect(doc.info.version).toBe("1.0.0");
});

test("every route of the app is in the document, described", () => {
  const registered = gw.routes
    .filter((r) => r.method !== "ALL")
    .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:([A-Za-z_]+)/g, "{$1}")}`);
  expect(registered.length).toBeGreaterThan(20);
  const documented = Object.entries(doc.paths).flatMap(([path, methods]) => Object.keys(methods as object).map((m) => `${m} ${path}`));
  expect(documented.sort()).toEqual([...new Set(registered)].sort());
  const undocumented = documented.filter((k) => {
    const [m, p] = k.split(" ");
    return doc.paths[p!][m!].summary === UNDOCUMENTED;
  });
  expect(undocumented).toEqual([]);
});

test("model bodies are the validators' schemas; every gateway operation is listed", () => {
  expect(doc.paths["/v1/responses"].post.requestBody.content["application/json"].schema.properties.max_output_tokens).toBeDefined();
  expect(doc.paths["/v1/messages/count_tokens"].post.requestBody.content["application/json"].schema.properties.max_tokens).toBeUndefined();
  const ops = doc.paths["/api/v1/gateway"].post.requestBody.content["application/json"].schema.oneOf.map(
    (s: any) => s.properties.operation.const,
  );
  expect(ops).toContain("ai.proxy");
  expect(ops).toContain("provider.create");
});

test("/docs: every path on one page, under a CSP that allows no script or outside asset", async () => {
  const res = await gw.handle(new Request("http://gw.test/docs"));
  expect(res.status).toBe(200);
  expect(res.headers.get("content-security-policy")).toBe(REFERENCE_PAGE_CSP);
  const html = await res.text();
  for (const p of Object.keys(doc.paths)) expect(html).toContain(`<code>${p}</code>`);
  expect(html).not.toMatch(/<script|https?:\/\/(?!127)/);
});
