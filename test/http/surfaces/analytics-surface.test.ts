/**
 * `GET /api/byok/analytics/*` at the edge: a `:period` that is not valid percent-encoding
 * was decoded with `decodeURIComponent`, whose URIError became a 500; it is a 400 naming
 * the parameter, like any other period the views do not know.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type InProcessGateway, startInProcessGateway } from "../../support/in-process-gateway.ts";

let gw: InProcessGateway;

beforeAll(async () => {
  gw = await startInProcessGateway();
});

afterAll(() => gw.stop());

const get = (path: string) => gw.handle(new Request(`${gw.origin}${path}`, { headers: { authorization: `Bearer ${gw.init.keyValue}` } }));

test("a period that is not valid percent-encoding is a 400 naming it, never a 500", async () => {
  for (const view of ["forecast", "trends", "providers"])
    for (const period of ["%ZZ", "%E0%A4%A", "%"]) {
      const res = await get(`/api/byok/analytics/${view}/${period}`);
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("invalid_request");
      expect(body.error.message).toStartWith(`period: "${period}" is not a period; use 7d, 30d or 90d`);
    }
});

test("a period sent percent-encoded is read as its text", async () => {
  const res = await get("/api/byok/analytics/trends/%37d");
  expect(res.status).toBe(200);
  expect(((await res.json()) as { trends?: unknown }).trends).toBeDefined();
});
