/**
 * SPEC "Errors": the lines no other test holds. 500 `internal_server_error` is the
 * answer to an unexpected failure on every surface, in that surface's envelope, and its
 * message reveals nothing of the failure (here: the store gone from under a running gateway).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type InProcessGateway, startInProcessGateway } from "../support/in-process-gateway.ts";

let gw: InProcessGateway;

beforeAll(async () => {
  gw = await startInProcessGateway();
  // The key is known (cached) before the failure, so each surface reaches its own work and fails there.
  expect((await gw.op({ key: gw.init.keyValue }, "user.me")).status).toBe(200);
  await gw.rt.store.close();
});

afterAll(() => gw.stop());

const GENERIC = "The gateway hit an unexpected error; it has been logged.";

async function call(path: string, body?: object): Promise<{ status: number; text: string; json: any }> {
  const res = await gw.handle(
    new Request(`${gw.origin}${path}`, {
      method: body ? "POST" : "GET",
      headers: { authorization: `Bearer ${gw.init.keyValue}`, "content-type": "application/json" },
      body: body ? JSON.stringify(body) : undefined,
    }),
  );
  const text = await res.text();
  return { status: res.status, text, json: JSON.parse(text) };
}

test("an unexpected failure is 500 internal_server_error in each surface's envelope, saying nothing of its cause", async () => {
  const chat = await call("/v1/chat/completions", { model: "gpt-4o", messages: [{ role: "user", content: "hi" }] });
  expect(chat.json).toEqual({ error: { message: GENERIC, type: "server_error", code: "internal_server_error", param: null } });

  const models = await call("/v1/models");
  expect(models.json.error).toMatchObject({ code: "internal_server_error", message: GENERIC });

  const messages = await call("/v1/messages", { model: "claude-sonnet-4-5", max_tokens: 5, messages: [{ role: "user", content: "hi" }] });
  expect(messages.json).toEqual({ type: "error", error: { type: "api_error", message: GENERIC, code: "internal_server_error" } });

  const general = await call("/api/user/etl-metrics");
  expect(general.json).toEqual({ error: { code: "internal_server_error", message: GENERIC, details: {} } });

  const operation = await call("/api/v1/gateway", { operation: "provider.list", params: {} });
  expect(operation.json).toEqual({ success: false, data: null, error: GENERIC, code: "internal_server_error" });

  for (const r of [chat, models, messages, general, operation]) {
    expect(r.status).toBe(500);
    // Neither the failure's own words nor a stack reach the caller.
    expect(r.text).not.toMatch(/closed|sqlite|database|at \S+ \(/i);
  }
});
