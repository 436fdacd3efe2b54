import { describe, expect, test } from "bun:test";
import { mayCarryUsage, openAiWire } from "../../../src/providers/openai-compatible/openai-wire.ts";
import { emptyUsage } from "../../../src/providers/wire-format.ts";

const event = (data: string) => ({ event: null, data, id: null });

describe("the chat-completions stream's usage", () => {
  test('chunks with "usage":null, as OpenAI sends on every chunk when usage is asked for, carry none', () => {
    expect(mayCarryUsage('{"choices":[{"delta":{"content":"hi"}}],"usage":null}')).toBe(false);
    expect(mayCarryUsage('{"choices":[],"usage" : null }')).toBe(false);
    expect(mayCarryUsage('{"choices":[{"delta":{"content":"usage"}}]}')).toBe(false);
  });

  test("a usage object, however spaced, may", () => {
    expect(mayCarryUsage('{"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":2}}')).toBe(true);
    expect(mayCarryUsage('{"choices":[],"usage" :\n {"prompt_tokens":3}}')).toBe(true);
  });

  test("a stream read chunk by chunk: the model from the first, the usage from the last, the null ones passed over", () => {
    const usage = emptyUsage();
    const chunks = [
      '{"model":"gpt-4o","choices":[{"delta":{"role":"assistant","content":""}}],"usage":null}',
      '{"model":"gpt-4o","choices":[{"delta":{"content":"Hello"}}],"usage":null}',
      '{"model":"gpt-4o","choices":[{"delta":{"content":" there"},"finish_reason":"stop"}],"usage":null}',
      '{"model":"gpt-4o","choices":[],"usage":{"prompt_tokens":12,"completion_tokens":2,"total_tokens":14}}',
      "[DONE]",
    ];
    const named = chunks.map((c) => openAiWire.fromEvent(event(c), usage));
    expect(named).toEqual([true, false, false, false, false]);
    expect(usage).toMatchObject({ model: "gpt-4o", promptTokens: 12, completionTokens: 2 });
  });

  test('Azure\'s first chunk (content filter results, model "") names no model: the next one does, and is checked', () => {
    const usage = emptyUsage();
    const chunks = [
      '{"choices":[],"created":0,"id":"","model":"","object":"","prompt_filter_results":[{"prompt_index":0,"content_filter_results":{}}]}',
      '{"id":"chatcmpl-1","model":"gpt-4o-mini-2024-07-18","choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}',
      '{"id":"chatcmpl-1","model":"gpt-4o-mini-2024-07-18","choices":[{"index":0,"delta":{"content":"Hi"}}]}',
    ];
    expect(chunks.map((c) => openAiWire.fromEvent(event(c), usage))).toEqual([false, true, false]);
    expect(usage.model).toBe("gpt-4o-mini-2024-07-18");
  });
});

describe("how a chat stream ends", () => {
  const ev = (data: string) => ({ event: null, data, id: null });
  test("[DONE] closes it; an error chunk in any of the shapes servers write is an error; a chunk whose text says error is neither", () => {
    expect(openAiWire.streamEnd(ev("[DONE]"))).toBe("done");
    expect(openAiWire.streamEnd(ev('{"error":{"message":"boom"}}'))).toBe("error");
    // OpenRouter's chunk with an error member, vLLM's error object.
    expect(openAiWire.streamEnd(ev('{"id":"x","choices":[{"finish_reason":"error"}],"error":{"code":502}}'))).toBe("error");
    expect(openAiWire.streamEnd(ev('{"object":"error","message":"boom"}'))).toBe("error");
    expect(openAiWire.streamEnd(ev(JSON.stringify({ choices: [{ delta: { content: 'the "error" was mine' } }] })))).toBeNull();
  });

  test('"error": null, written by some servers in every chunk, is no error chunk; an error member with a value is', () => {
    expect(openAiWire.streamEnd(ev('{"id":"x","error":null,"choices":[{"delta":{"content":"a"}}]}'))).toBeNull();
    expect(openAiWire.streamEnd(ev('{"id":"x","error" : null ,"choices":[]}'))).toBeNull();
    expect(openAiWire.streamEnd(ev('{"id":"x","error": {"message":"boom"}}'))).toBe("error");
    expect(openAiWire.streamEnd(ev('{"error":"boom"}'))).toBe("error");
  });

  test("an error chunk's status is the one the same error answered whole has: by its numeric code, else its type, else 500", () => {
    expect(openAiWire.errorOf(ev('{"error":{"message":"slow down","type":"requests","code":"rate_limit_exceeded"}}'))).toEqual({
      status: 429,
      message: "slow down",
    });
    expect(openAiWire.errorOf(ev('{"choices":[{"finish_reason":"error"}],"error":{"code":502,"message":"upstream"}}'))).toEqual({
      status: 502,
      message: "upstream",
    });
    expect(openAiWire.errorOf(ev('{"object":"error","message":"bad","type":"BadRequestError","code":400}'))).toEqual({
      status: 400,
      message: "bad",
    });
    expect(openAiWire.errorOf(ev('{"error":{"message":"x","type":"overloaded_error"}}')).status).toBe(529);
    expect(openAiWire.errorOf(ev('{"error":"down"}'))).toEqual({ status: 500, message: "down" });
    expect(openAiWire.errorOf(ev("{not json"))).toEqual({ status: 500, message: "(no message)" });
  });

  test("one that lost [DONE] after its finish reason (the usage chunk may follow it) gets it back; one without a finish reason does not", () => {
    const finish = ev(JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: "stop" }] }));
    const usage = ev(JSON.stringify({ choices: [], usage: { prompt_tokens: 1, completion_tokens: 1 } }));
    const piece = ev(JSON.stringify({ choices: [{ index: 0, delta: { content: "a" }, finish_reason: null }] }));
    expect(new TextDecoder().decode(openAiWire.closingFor(emptyUsage(), [finish, usage]) ?? undefined)).toBe("data: [DONE]\n\n");
    expect(openAiWire.closingFor(emptyUsage(), [piece, usage])).toBeNull();
    expect(openAiWire.closingFor(emptyUsage(), [null, piece])).toBeNull();
    expect(openAiWire.closingFor(emptyUsage(), [null, null])).toBeNull();
  });
});

describe("prompt-cache tokens, parts of prompt_tokens", () => {
  test("OpenAI's cached_tokens, OpenRouter's cache_write_tokens, DeepSeek's prompt_cache_hit_tokens", () => {
    const read = (usage: object) => openAiWire.fromBody({ model: "m", usage: { prompt_tokens: 3000, completion_tokens: 5, ...usage } });
    expect(read({ prompt_tokens_details: { cached_tokens: 2048 } }).cache).toEqual({ read: 2048, write: 0, writeLong: 0 });
    expect(read({ prompt_tokens_details: { cached_tokens: 0, cache_write_tokens: 100 } }).cache).toEqual({
      read: 0,
      write: 100,
      writeLong: 0,
    });
    expect(read({ prompt_cache_hit_tokens: 1500, prompt_cache_miss_tokens: 1500 }).cache).toEqual({ read: 1500, write: 0, writeLong: 0 });
    expect(read({ prompt_tokens_details: { cached_tokens: 0 } }).cache).toBeUndefined();
    expect(read({ prompt_tokens_details: null }).cache).toBeUndefined();
  });

  test("from a stream's usage chunk; a chunk repeating the same writes keeps the 1-hour part a translation kept", () => {
    const acc = emptyUsage();
    acc.cache = { read: 2000, write: 500, writeLong: 200 };
    const chunk = {
      model: "m",
      choices: [],
      usage: { prompt_tokens: 2510, completion_tokens: 7, prompt_tokens_details: { cached_tokens: 2000, cache_write_tokens: 500 } },
    };
    openAiWire.fromEvent(event(JSON.stringify(chunk)), acc);
    expect(acc).toMatchObject({ promptTokens: 2510, cache: { read: 2000, write: 500, writeLong: 200 } });
    const fresh = emptyUsage();
    openAiWire.fromEvent(event(JSON.stringify(chunk)), fresh);
    expect(fresh.cache).toEqual({ read: 2000, write: 500, writeLong: 0 });
  });
});

describe("the service tier an answer was served at", () => {
  test("read from a whole answer's service_tier; absent, empty or not a string, none", () => {
    const body = { model: "gpt-5", usage: { prompt_tokens: 3, completion_tokens: 2 } };
    expect(openAiWire.bodyMembers).toContain("service_tier");
    expect(openAiWire.fromBody({ ...body, service_tier: "priority" }).serviceTier).toBe("priority");
    expect(openAiWire.fromBody(body).serviceTier).toBeUndefined();
    expect(openAiWire.fromBody({ ...body, service_tier: "" }).serviceTier).toBeUndefined();
    expect(openAiWire.fromBody({ ...body, service_tier: 7 }).serviceTier).toBeUndefined();
  });

  test("read from a stream: the usage chunk's tier is the last word", () => {
    const usage = emptyUsage();
    const chunks = [
      '{"model":"gpt-5","service_tier":"default","choices":[{"delta":{"role":"assistant","content":""}}],"usage":null}',
      '{"model":"gpt-5","service_tier":"default","choices":[{"delta":{"content":"Hi"}}],"usage":null}',
      '{"model":"gpt-5","service_tier":"flex","choices":[],"usage":{"prompt_tokens":12,"completion_tokens":2}}',
    ];
    for (const c of chunks) openAiWire.fromEvent(event(c), usage);
    expect(usage).toMatchObject({ model: "gpt-5", promptTokens: 12, completionTokens: 2, serviceTier: "flex" });
  });
});
