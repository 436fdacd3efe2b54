/**
 * An OTLP/HTTP JSON trace receiver on loopback: what a Collector would be sent, kept
 * as flat spans (attributes as a plain object) for tests to look for.
 */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  status: { code?: number; message?: string };
}

export interface OtlpReceiver {
  url: string;
  spans: ReceivedSpan[];
  /** Every request body as received, for searching the raw export. */
  raw: string[];
  /** Resolves once `match` finds a span (polling what arrived). */
  waitFor(match: (s: ReceivedSpan) => boolean, timeoutMs?: number): Promise<ReceivedSpan>;
  stop(): void;
}

type AnyValue = {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: AnyValue[] };
};

function valueOf(v: AnyValue): unknown {
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.arrayValue) return (v.arrayValue.values ?? []).map(valueOf);
  return null;
}

export function startOtlpReceiver(): OtlpReceiver {
  const spans: ReceivedSpan[] = [];
  const raw: string[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const text = await req.text();
      raw.push(text);
      const body = JSON.parse(text) as { resourceSpans?: { scopeSpans?: { spans?: any[] }[] }[] };
      for (const rs of body.resourceSpans ?? [])
        for (const ss of rs.scopeSpans ?? [])
          for (const s of ss.spans ?? [])
            spans.push({
              traceId: s.traceId,
              spanId: s.spanId,
              parentSpanId: s.parentSpanId ?? "",
              name: s.name,
              kind: s.kind,
              status: s.status ?? {},
              attributes: Object.fromEntries((s.attributes ?? []).map((a: { key: string; value: AnyValue }) => [a.key, valueOf(a.value)])),
            });
      return Response.json({});
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    spans,
    raw,
    async waitFor(match, timeoutMs = 15_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const found = spans.find(match);
        if (found) return found;
        if (Date.now() > until) throw new Error(`no matching span among ${spans.length}: ${spans.map((s) => s.name).join(", ")}`);
        await Bun.sleep(50);
      }
    },
    stop: () => server.stop(true),
  };
}
