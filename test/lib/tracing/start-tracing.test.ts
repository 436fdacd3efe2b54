/** Tracing on and off: off builds nothing; on exports over OTLP/HTTP in protobuf by default, parented on the caller's context. */
import { describe, expect, test } from "bun:test";
import { startTracing } from "../../../src/lib/tracing/start-tracing.ts";
import { NO_TRACING, NOOP_SPAN } from "../../../src/lib/tracing/trace-span.ts";

describe("startTracing", () => {
  test("without a configuration it is off, and every span is the shared no-op", async () => {
    const tracing = await startTracing(null, "1.0.0");
    expect(tracing).toBe(NO_TRACING);
    const span = tracing.startRequest("GET /x", new Headers({ traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01" }));
    expect(span).toBe(NOOP_SPAN);
    expect(span.child("gw.plan")).toBe(NOOP_SPAN);
    expect(span.traceparent()).toBeNull();
  });

  test("with an endpoint it exports protobuf over HTTP, and a child continues the caller's trace", async () => {
    const received: { type: string | null; bytes: number }[] = [];
    const server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      async fetch(req) {
        received.push({ type: req.headers.get("content-type"), bytes: (await req.arrayBuffer()).byteLength });
        return new Response(null, { status: 200 });
      },
    });
    try {
      const tracing = await startTracing(
        {
          url: `http://127.0.0.1:${server.port}/v1/traces`,
          headers: {},
          protocol: "http/protobuf",
          serviceName: "t",
          sampler: "parentbased_always_on",
          ratio: 1,
          batchDelayMs: 50,
        },
        "1.0.0",
      );
      const span = tracing.startRequest(
        "POST /v1/chat/completions",
        new Headers({ traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", tracestate: "a=1" }),
      );
      expect(span.recording).toBe(true);
      expect(span.traceparent()).toMatch(/^00-0af7651916cd43dd8448eb211c80319c-[0-9a-f]{16}-01$/);
      expect(span.tracestate()).toBe("a=1");
      const held = span.hold();
      span.end();
      const child = span.child("gw.plan");
      child.end();
      child.end();
      held();
      await tracing.shutdown();
      expect(received.length).toBeGreaterThan(0);
      expect(received[0]!.type).toBe("application/x-protobuf");
      expect(received[0]!.bytes).toBeGreaterThan(0);
    } finally {
      server.stop(true);
    }
  });

  test("a trace the caller did not sample is not recorded, but its context still goes on", async () => {
    const tracing = await startTracing(
      {
        url: "http://127.0.0.1:9/v1/traces",
        headers: {},
        protocol: "http/json",
        serviceName: "t",
        sampler: "parentbased_always_on",
        ratio: 1,
        batchDelayMs: 50,
      },
      "1.0.0",
    );
    const span = tracing.startRequest("GET /x", new Headers({ traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00" }));
    expect(span.recording).toBe(false);
    expect(span.traceparent()).toMatch(/^00-0af7651916cd43dd8448eb211c80319c-[0-9a-f]{16}-00$/);
    span.end();
    await tracing.shutdown();
  });
});
