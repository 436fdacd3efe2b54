/**
 * Sending to a provider. Every call in flight is watched by one timer for the whole
 * process, so many calls at once must each keep their own outcome: a deadline passed
 * is 504, a client that leaves is 499, and no other call is cut or kept by mistake.
 */
import { expect, test } from "bun:test";
import type { ApiError } from "../../src/lib/errors.ts";
import type { UpstreamRequest } from "../../src/providers/adapter.ts";
import { providerFailure } from "../../src/providers/provider-failure.ts";
import { ClientGone, sendUpstream, upstreamFailure, watchRunning, withoutSecrets } from "../../src/providers/upstream.ts";
import { mockPerFile } from "../support/mock-per-file.ts";

const mock = mockPerFile();

/** A chat call the mock answers after `slowMs`. */
const chat = (slowMs: number): UpstreamRequest => ({
  url: `${mock.url}/v1/chat/completions`,
  method: "POST",
  headers: { "content-type": "application/json", authorization: "Bearer k-123456789" },
  body: JSON.stringify({ model: `slow-${slowMs}`, messages: [{ role: "user", content: "x" }] }),
});
const STAYING = new AbortController();

async function outcome(slowMs: number, timeoutMs: number, caller = STAYING): Promise<number | string> {
  try {
    const up = await sendUpstream(chat(slowMs), { caller, timeoutMs, providerName: "mock" });
    await up.response.text();
    up.done();
    // Twice, as error paths may: it must not let go of another call.
    up.done();
    return up.response.status;
  } catch (err) {
    return (err as ApiError).code;
  }
}

test("many calls at once: those past their deadline are 504, every other one is answered", async () => {
  // Interleaved, so calls leave the watch from the middle of its list while others wait. The
  // answered calls need at most 170 ms and the others 20 s, both far from the 4 s deadline,
  // so a loaded machine (seen: answered calls past 2 s with the suite beside other work) cannot
  // move a call to the other side of it.
  const plans = Array.from({ length: 40 }, (_, i) => ({ slowMs: i % 2 ? 20_000 : 50 + (i % 7) * 20, timeoutMs: 4_000 }));
  const results = await Promise.all(plans.map((p) => outcome(p.slowMs, p.timeoutMs)));
  expect(results).toEqual(plans.map((p) => (p.slowMs > p.timeoutMs ? "provider_timeout" : 200)));
});

test("a client that leaves before the answer ends its call (499); the calls beside it are answered", async () => {
  const leaving = new AbortController();
  // Without the watch this call would wait far longer than the test may run.
  const left = sendUpstream(chat(60_000), { caller: leaving, timeoutMs: 120_000, providerName: "mock" }).catch((e) => e);
  const beside = Array.from({ length: 6 }, () => outcome(300, 10_000));
  setTimeout(() => leaving.abort(), 50);
  expect(await left).toBeInstanceOf(ClientGone);
  expect(await Promise.all(beside)).toEqual([200, 200, 200, 200, 200, 200]);
});

test("the watch outlives a call, so the next one a moment later finds it running, and stops once nothing has been watched a while", async () => {
  expect(await outcome(0, 5_000)).toBe(200);
  // A call a moment apart (a stream every 100 ms) does not make the timer again.
  expect(watchRunning()).toBe(true);
  // Then, with no call at all, it stops (after a second; waited for up to ten).
  for (let i = 0; i < 100 && watchRunning(); i++) await Bun.sleep(100);
  expect(watchRunning()).toBe(false);
  // And a call after that starts it again, its deadline kept.
  expect(await outcome(50, 2_000)).toBe(200);
});

test("an unreachable provider is 503, and the failed call leaves the watch", async () => {
  const err = (await sendUpstream(
    { ...chat(0), url: "http://127.0.0.1:9/v1/chat/completions" },
    { caller: STAYING, timeoutMs: 5_000, providerName: "gone" },
  ).catch((e) => e)) as ApiError;
  expect(err.status).toBe(503);
  expect(err.code).toBe("provider_unavailable");
  // A call watched after it still keeps its own deadline.
  expect(await outcome(50, 2_000)).toBe(200);
});

test("an error's body is read only as far as its message is kept, and one cut off still names the failure", async () => {
  let pulled = 0;
  // 1 MiB in 1 KiB pieces, each made only when asked for.
  const long = new ReadableStream<Uint8Array>({
    pull(c) {
      if (++pulled > 1024) return c.close();
      c.enqueue(new TextEncoder().encode("x".repeat(1024)));
    },
  });
  const failure = await upstreamFailure(new Response(long, { status: 500 }), "mock", []);
  expect(failure).toMatchObject({ status: 502, code: "provider_error" });
  expect(failure.message).toStartWith("mock failed (HTTP 500): xxx");
  // 64 KiB is kept; the rest is never asked for.
  expect(pulled).toBeLessThan(100);
  const cut = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(new TextEncoder().encode('{"error":{"message":"slow'));
      c.error(new Error("reset"));
    },
  });
  const limited = await upstreamFailure(new Response(cut, { status: 429, headers: { "retry-after": "3" } }), "mock", []);
  expect(limited).toMatchObject({ status: 429, code: "rate_limit_exceeded", headers: { "retry-after": "3" } });
});

test("a provider's wait is kept in the forms the SDKs read, retry-after-ms included; a date or junk is dropped", async () => {
  const failing = (headers: Record<string, string>) => upstreamFailure(new Response("{}", { status: 429, headers }), "mock", []);
  expect((await failing({ "retry-after": "2", "retry-after-ms": "1500.5" })).headers).toEqual({
    "retry-after": "2",
    "retry-after-ms": "1500.5",
  });
  expect((await failing({ "retry-after-ms": "20" })).headers).toEqual({ "retry-after-ms": "20" });
  expect((await failing({ "retry-after": "Wed, 21 Oct 2015 07:28:00 GMT", "retry-after-ms": "-1" })).headers).toBeUndefined();
});

test("a key the provider echoes across the message's 1,000-character cut is removed whole, no prefix of it kept", async () => {
  const key = "sk-live-0123456789abcdefghijklmnopqrstuvwxyz";
  for (const before of [990, 995, 1000 - key.length + 1]) {
    const body = JSON.stringify({ error: { message: `${"x".repeat(before)}${key} is not valid` } });
    const failure = await upstreamFailure(new Response(body, { status: 401 }), "mock", [key]);
    expect(failure.status).toBe(401);
    // No run of the key's first 8 characters or more survives.
    expect(failure.message).not.toContain(key.slice(0, 8));
  }
});

test("withoutSecrets cuts every value of at least 8 characters, and leaves the text as it was when none is there", () => {
  expect(withoutSecrets("key sk-abcdefgh and sk-abcdefgh, secret s3cr3tvalue", ["sk-abcdefgh", "s3cr3tvalue", "short", ""])).toBe(
    "key [redacted] and [redacted], secret [redacted]",
  );
  const text = "nothing to cut";
  expect(withoutSecrets(text, ["sk-abcdefgh"])).toBe(text);
});

test("an overloaded provider is worded by what it sent: an answer's status, or a stream's error event standing for it", () => {
  const whole = providerFailure(529, "Overloaded", "anthropic");
  const event = providerFailure(529, "Overloaded", "anthropic", undefined, "stream event");
  expect([whole.status, whole.code, event.status, event.code]).toEqual([503, "provider_unavailable", 503, "provider_unavailable"]);
  expect(whole.message).toBe("anthropic is unavailable (it answered HTTP 529): Overloaded");
  expect(event.message).toBe("anthropic is unavailable (its stream sent an error event, read as HTTP 529): Overloaded");
});

test("the cloud platform's failure is read from its own envelope: the exception's name from x-amzn-ErrorType, `message` or `Message`", async () => {
  const platform = (body: unknown, type: string, status = 429) =>
    new Response(JSON.stringify(body), { status, headers: { "x-amzn-errortype": type } });
  const lower = await upstreamFailure(
    platform(
      { message: "Too many requests, please wait before trying again." },
      "ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/",
    ),
    "bedrock",
    [],
  );
  expect([lower.status, lower.code]).toEqual([429, "rate_limit_exceeded"]);
  expect(lower.message).toBe("bedrock is rate limiting this key: ThrottlingException: Too many requests, please wait before trying again.");
  const upper = await upstreamFailure(
    platform(
      { Message: "User: arn:aws:iam::123456789012:user/x is not authorized to perform: bedrock:InvokeModel" },
      "AccessDeniedException",
      403,
    ),
    "bedrock",
    [],
  );
  expect(upper.message).toBe(
    "bedrock: AccessDeniedException: User: arn:aws:iam::123456789012:user/x is not authorized to perform: bedrock:InvokeModel",
  );
  // A namespaced name is cut as the AWS SDK cuts it; a header that is no name adds nothing.
  const namespaced = await upstreamFailure(platform({ message: "m" }, "com.amazonaws.bedrockruntime#ValidationException"), "bedrock", []);
  expect(namespaced.message).toBe("bedrock is rate limiting this key: ValidationException: m");
  const junk = await upstreamFailure(platform({ message: "m" }, "<b>not a name</b>"), "bedrock", []);
  expect(junk.message).toBe("bedrock is rate limiting this key: m");
});
