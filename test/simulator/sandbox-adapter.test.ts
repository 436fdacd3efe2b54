/**
 * The sandbox as an adapter: a simulated target's calls are answered in process, in
 * the wire family a live call of the same target would use, and read back by that
 * family's wire format exactly as a provider's answer is (model, usage, stream pieces).
 * Nothing reaches the network: the egress policy (loopback refused here) is never asked.
 */
import { describe, expect, test } from "bun:test";
import { SseDecoder } from "../../src/lib/sse.ts";
import { callAdapter } from "../../src/pipeline/call-adapter.ts";
import { messagesWire } from "../../src/providers/anthropic/messages-wire.ts";
import { PROVIDER_KINDS_INFO, type ProviderKind } from "../../src/providers/catalog/provider-kinds.ts";
import { openAiWire } from "../../src/providers/openai-compatible/openai-wire.ts";
import { adapterFor } from "../../src/providers/registry.ts";
import { servedBy, type Target, targetFor } from "../../src/providers/target.ts";
import { sendUpstream } from "../../src/providers/upstream.ts";
import { emptyUsage } from "../../src/providers/wire-format.ts";
import { sandboxAdapter } from "../../src/simulator/sandbox-adapter.ts";

function target(kind: ProviderKind, model: string, simulated: boolean): Target {
  const info = PROVIDER_KINDS_INFO[kind];
  // An address the egress policy refuses: a simulated call must never get as far as asking it.
  const t = targetFor({
    info,
    baseUrl: "http://127.0.0.1:9",
    credentials: { type: "api-key", apiKey: "" },
    model,
    catalogModel: undefined,
  });
  return simulated ? { ...t, simulated: true } : t;
}

const send = (req: Parameters<typeof sendUpstream>[0]) =>
  sendUpstream(req, { caller: { signal: new AbortController().signal }, timeoutMs: 5_000, providerName: "sandbox" });

const CASES = [
  { kind: "openai", model: "gpt-4o", wire: openAiWire, extra: { stream_options: { include_usage: true } } },
  { kind: "anthropic", model: "claude-sonnet-4-5", wire: messagesWire, extra: { max_tokens: 64 } },
] as const;

describe("callAdapter", () => {
  test("a live target gets its format's adapter; a simulated one the simulator in the same wire family", () => {
    for (const c of CASES) {
      const live = target(c.kind, c.model, false);
      expect(callAdapter(live)).toBe(adapterFor(live.format));
      const simulated = callAdapter(target(c.kind, c.model, true));
      expect(simulated).toBe(sandboxAdapter(adapterFor(live.format).wire));
      expect(simulated.wire).toBe(adapterFor(live.format).wire);
    }
  });

  test("a simulated answer is served by the sandbox; a live one by its provider", () => {
    expect(servedBy(target("openai", "gpt-4o", true))).toBe("sandbox/gpt-4o");
    expect(servedBy(target("openai", "gpt-4o", false))).toBe("openai/gpt-4o");
  });
});

for (const c of CASES) {
  describe(`the sandbox speaking ${c.wire === openAiWire ? "chat completions" : "messages"}`, () => {
    const t = target(c.kind, c.model, true);
    const body = (stream: boolean) => ({
      model: "alias/for-the-caller",
      messages: [{ role: "user", content: "Hello, sandbox." }],
      stream,
      ...c.extra,
    });

    test("answers in process as the target's model, with usage the wire reads", async () => {
      const req = await callAdapter(t).request(t, body(false), { stream: false, headers: new Headers() });
      expect(req.url).toStartWith("sandbox:");
      const up = await send(req);
      expect(up.response.status).toBe(200);
      const usage = c.wire.fromBody((await up.response.json()) as Record<string, unknown>);
      expect(usage.model).toBe(c.model);
      expect(usage.promptTokens).toBeGreaterThan(0);
      expect(usage.completionTokens).toBeGreaterThan(0);
    });

    test("streams events the wire reads: the model once, answer pieces, usage", async () => {
      const req = await callAdapter(t).request(t, body(true), { stream: true, headers: new Headers() });
      const up = await send(req);
      const usage = emptyUsage();
      let named = 0;
      let pieces = 0;
      const decoder = new SseDecoder();
      for await (const chunk of up.response.body as ReadableStream<Uint8Array>) {
        for (const b of decoder.push(chunk)) {
          if (!b.event) continue;
          if (c.wire.fromEvent(b.event, usage)) named++;
          if (c.wire.carriesAnswer(b.event)) pieces++;
        }
      }
      expect(decoder.end().clean).toBe(true);
      expect(named).toBe(1);
      expect(pieces).toBeGreaterThan(0);
      expect(usage.model).toBe(c.model);
      expect(usage.completionTokens).toBeGreaterThan(0);
    });
  });
}
