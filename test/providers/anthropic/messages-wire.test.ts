/** The messages wire format as the gateway reads a provider's stream: counts from message_start and message_delta, odd events skipped. */
import { expect, test } from "bun:test";
import {
  messagesWire,
  promptTokensOf,
  reservedServerToolFees,
  serverToolFeeCeiling,
  WEB_SEARCH_FEE_MICROS,
} from "../../../src/providers/anthropic/messages-wire.ts";
import { openAiWire } from "../../../src/providers/openai-compatible/openai-wire.ts";
import { responsesWire } from "../../../src/providers/openai-compatible/responses-wire.ts";
import { emptyUsage } from "../../../src/providers/wire-format.ts";

const ev = (event: string | null, data: string) => ({ event, data, id: null });

test("an event whose data is JSON null, or a member null where an object belongs, is skipped by every wire, never thrown", () => {
  const odd = ["null", "5", '"text"', '{"message":null,"usage":null,"delta":null,"response":null}', '{"response":{"usage":null}}'];
  for (const data of odd) {
    for (const name of ["message_start", "message_delta"]) expect(messagesWire.fromEvent(ev(name, data), emptyUsage())).toBe(false);
    expect(openAiWire.fromEvent(ev(null, data), emptyUsage())).toBe(false);
    expect(responsesWire.fromEvent(ev("response.completed", data), emptyUsage())).toBe(false);
  }
});

test("input counted again on message_delta (the vendor's cumulative counts) is charged when message_start had none", () => {
  const acc = emptyUsage();
  messagesWire.fromEvent(ev("message_start", JSON.stringify({ message: { model: "m", usage: { output_tokens: 1 } } })), acc);
  messagesWire.fromEvent(
    ev(
      "message_delta",
      JSON.stringify({ delta: { stop_reason: "end_turn" }, usage: { input_tokens: 10, cache_read_input_tokens: 30, output_tokens: 4 } }),
    ),
    acc,
  );
  expect([acc.promptTokens, acc.completionTokens, acc.finishReason]).toEqual([40, 4, "end_turn"]);
});

test('only numbers are counts: a provider\'s "10" is not joined as text to the other counts', () => {
  expect(promptTokensOf({ input_tokens: "10", cache_read_input_tokens: 5 } as never)).toBe(5);
  expect(promptTokensOf({ input_tokens: -3, cache_creation_input_tokens: 2 })).toBe(2);
});

test("a messages stream ends with message_stop or an error event; one that lost message_stop after its stop reason gets it back", () => {
  const ev = (event: string, data: object) => ({ event, data: JSON.stringify({ type: event, ...data }), id: null });
  expect(messagesWire.streamEnd(ev("message_stop", {}))).toBe("done");
  expect(messagesWire.streamEnd(ev("error", { error: { type: "overloaded_error" } }))).toBe("error");
  expect(messagesWire.streamEnd(ev("ping", {}))).toBeNull();
  const acc = emptyUsage();
  expect(messagesWire.closingFor(acc, [])).toBeNull();
  messagesWire.fromEvent(ev("message_delta", { delta: { stop_reason: "end_turn" }, usage: { output_tokens: 2 } }), acc);
  expect(new TextDecoder().decode(messagesWire.closingFor(acc, []) ?? undefined)).toBe(
    'event: message_stop\ndata: {"type":"message_stop"}\n\n',
  );
});

test("an error event's status is its type's, as the vendor answers it whole: overloaded_error is 529, an unknown type 500", () => {
  const ev = (error: object) => ({ event: "error", data: JSON.stringify({ type: "error", error }), id: null });
  expect(messagesWire.errorOf(ev({ type: "overloaded_error", message: "Overloaded" }))).toEqual({ status: 529, message: "Overloaded" });
  expect(messagesWire.errorOf(ev({ type: "rate_limit_error", message: "slow" })).status).toBe(429);
  expect(messagesWire.errorOf(ev({ type: "authentication_error", message: "no" })).status).toBe(401);
  expect(messagesWire.errorOf(ev({ type: "something_new" }))).toEqual({ status: 500, message: "(no message)" });
});

test("cache reads and writes are parts of the prompt, kept apart, the 1-hour writes too; from the body and from a stream", () => {
  const usage = {
    input_tokens: 10,
    cache_read_input_tokens: 2000,
    cache_creation_input_tokens: 500,
    cache_creation: { ephemeral_5m_input_tokens: 300, ephemeral_1h_input_tokens: 200 },
    output_tokens: 7,
  };
  expect(messagesWire.fromBody({ model: "m", usage })).toMatchObject({
    promptTokens: 2510,
    completionTokens: 7,
    cache: { read: 2000, write: 500, writeLong: 200 },
  });
  const acc = emptyUsage();
  messagesWire.fromEvent(ev("message_start", JSON.stringify({ message: { model: "m", usage: { ...usage, output_tokens: 1 } } })), acc);
  // The vendor repeats its cumulative counts on message_delta; a server that names only the lifetimes is summed.
  const only = {
    input_tokens: 10,
    cache_read_input_tokens: 2000,
    cache_creation: { ephemeral_5m_input_tokens: 300, ephemeral_1h_input_tokens: 200 },
  };
  messagesWire.fromEvent(ev("message_delta", JSON.stringify({ usage: { ...only, output_tokens: 7 } })), acc);
  expect(acc).toMatchObject({ promptTokens: 2510, completionTokens: 7, cache: { read: 2000, write: 500, writeLong: 200 } });
  // No cache tokens, or counts that are not numbers: no cache part.
  expect(messagesWire.fromBody({ usage: { input_tokens: 5, cache_read_input_tokens: "9" } }).cache).toBeUndefined();
});

test("web searches the vendor's server tool ran are charged at its listed $10 per 1,000, from the body and from a stream", () => {
  // `usage.server_tool_use.web_search_requests`, as the vendor's SDK types it (src/resources/messages/messages.ts, Usage).
  const body = { model: "claude-sonnet-4-5", usage: { input_tokens: 900, output_tokens: 40, server_tool_use: { web_search_requests: 3 } } };
  expect(messagesWire.fromBody(body).feeMicros).toBe(3 * WEB_SEARCH_FEE_MICROS);
  expect(WEB_SEARCH_FEE_MICROS).toBe(10_000);
  expect(messagesWire.fromBody({ model: "m", usage: { input_tokens: 1, output_tokens: 1 } }).feeMicros).toBeUndefined();
  const acc = emptyUsage();
  const start = { type: "message_start", message: { model: "claude-sonnet-4-5", usage: { input_tokens: 900, output_tokens: 1 } } };
  messagesWire.fromEvent(ev("message_start", JSON.stringify(start)), acc);
  // Counts on message_delta are cumulative: two, then four searches is four in all, not six.
  for (const searches of [2, 4]) {
    const delta = { type: "message_delta", delta: {}, usage: { output_tokens: 40, server_tool_use: { web_search_requests: searches } } };
    messagesWire.fromEvent(ev("message_delta", JSON.stringify(delta)), acc);
  }
  expect(acc.feeMicros).toBe(4 * WEB_SEARCH_FEE_MICROS);
  // Anything but a count is none.
  const odd = messagesWire.fromBody({ model: "m", usage: { input_tokens: 1, server_tool_use: { web_search_requests: "5" } } });
  expect(odd.feeMicros).toBeUndefined();
});

test("a request's web search tools reserve their max_uses searches, one when unset; other tools reserve nothing", () => {
  const search = (extra: Record<string, unknown> = {}) => ({ type: "web_search_20250305", name: "web_search", ...extra });
  expect(reservedServerToolFees([search({ max_uses: 5 })])).toBe(5 * WEB_SEARCH_FEE_MICROS);
  expect(reservedServerToolFees([search(), search({ max_uses: 2 })])).toBe(3 * WEB_SEARCH_FEE_MICROS);
  expect(reservedServerToolFees([search({ max_uses: -4 }), search({ max_uses: "9" })])).toBe(2 * WEB_SEARCH_FEE_MICROS);
  expect(reservedServerToolFees([{ name: "lookup", input_schema: { type: "object" } }, null])).toBe(0);
  expect(reservedServerToolFees(undefined)).toBe(0);
});

test("the most a request's web search tools let the vendor charge: their max_uses, none without one, unbounded when one sets none", () => {
  const search = (extra: Record<string, unknown> = {}) => ({ type: "web_search_20250305", name: "web_search", ...extra });
  expect(serverToolFeeCeiling([search({ max_uses: 5 }), search({ max_uses: 2000 })])).toBe(2005 * WEB_SEARCH_FEE_MICROS);
  expect(serverToolFeeCeiling([{ name: "lookup", input_schema: { type: "object" } }, null])).toBe(0);
  expect(serverToolFeeCeiling(undefined)).toBe(0);
  expect(serverToolFeeCeiling([search({ max_uses: 5 }), search()])).toBeUndefined();
  expect(serverToolFeeCeiling([search({ max_uses: "9" })])).toBeUndefined();
});
