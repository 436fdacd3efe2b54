/**
 * How one call's answer comes back: the wire format it is read in, and what turns it
 * into the caller's format. Built per call (chat-call.ts, model-call.ts), read by the
 * attempt (forward.ts) and its stream (stream-outcome.ts).
 */
import type { CallUsage, WireFormat } from "../providers/wire-format.ts";

/** How one call travels: the wire format read on the way back, and optional reshaping for a caller of another format. */
export interface Route {
  wire: WireFormat;
  /** Non-stream: the provider's body as the caller's format. */
  reshape?: (body: Record<string, unknown>) => Record<string, unknown>;
  /**
   * Non-stream, not reshaped: the body is read for the wire's members only, not parsed
   * whole (embeddings: tens of kilobytes of numbers the gateway relays unread).
   */
  membersOnly?: boolean;
  /**
   * Stream: the provider's SSE as the caller's format, its events at most `maxEventChars` long.
   * It keeps `counts` (tokens only, never the model) as the provider reports them, so a stream
   * the client leaves before the translated usage chunk is charged the provider's own counts.
   * It calls `interrupted` when it ends the caller's stream with its own error because the
   * provider's ended before its last event, so the call is recorded as a native one is.
   */
  restream?: (maxEventChars: number, counts: CallUsage, interrupted?: () => void) => TransformStream<Uint8Array, Uint8Array>;
  /** Stream: events to drop before the caller sees them. */
  keep?: (data: string) => boolean;
}
