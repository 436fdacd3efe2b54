/**
 * The mock provider's fault steers: a model named `fault-<name>` is answered with a
 * misbehaviour from stream-faults.ts, answer-faults.ts or body-faults.ts instead of the
 * simulator's answer. Each fault is a plan, a pure description of the bytes to send and how
 * (one network write a piece, pauses, a body held open or without end, a declared length);
 * `sendPlan` is the one place that turns a plan into a Response, so the faults stay data a
 * test can read and compare.
 */
import { ANSWER_FAULTS } from "./answer-faults.ts";
import { BODY_FAULTS } from "./body-faults.ts";
import { STREAM_FAULTS } from "./stream-faults.ts";
import type { FaultContext, FaultFamily, FaultPlan, FaultTable, Piece } from "./fault-types.ts";

const STEER = /(?:^|[./])fault-([a-z0-9-]+)$/;
const encoder = new TextEncoder();
/** The fault families, looked up in this order: the first with the name answers. */
const TABLES: readonly FaultTable[] = [STREAM_FAULTS, ANSWER_FAULTS, BODY_FAULTS];

/** The fault a model name asks for (`fault-stall` and `chat.fault-stall` are `stall`), or undefined when it asks for none. */
export function faultSteer(model: string): string | undefined {
  return STEER.exec(model)?.[1];
}

/**
 * The fault an end user asks for (chat's `user`, the messages format's `metadata.user_id`):
 * the steer for a model the catalog must still price, as the prompt-cache steer is.
 */
export function userFaultSteer(body: Record<string, any> | null): string | undefined {
  const user = body?.user ?? body?.metadata?.user_id;
  return typeof user === "string" ? /^fault-([a-z0-9-]+)$/.exec(user)?.[1] : undefined;
}

/** A provider that never answers: the same on every route, embeddings included. */
const HANG: FaultPlan = { status: 499, headers: {}, pieces: [], end: "close", hang: true };

/** The plan for `name` in `family` (undefined: a route with no format of its own), or undefined when it has no form there. */
export function faultPlan(name: string, family: FaultFamily | undefined, ctx: FaultContext): FaultPlan | undefined {
  if (name === "hang") return HANG;
  if (!family) return undefined;
  for (const table of TABLES) if (Object.hasOwn(table[family], name)) return table[family][name]?.(ctx);
  return undefined;
}

/**
 * Sends a plan: each piece its own write, in order. `hungUp` is called once if the client
 * leaves before a body that does not end by itself (held or repeated) was closed.
 */
export function sendPlan(plan: FaultPlan, signal: AbortSignal, hungUp: () => void = () => {}): Response | Promise<Response> {
  const init = { status: plan.status, headers: plan.headers };
  if (plan.hang)
    return new Promise((resolve) => {
      const leave = () => (hungUp(), resolve(new Response(null, init)));
      if (signal.aborted) leave();
      else signal.addEventListener("abort", leave, { once: true });
    });
  if (plan.pieces.length === 0 && plan.end === "close") return new Response(null, init);
  if (plan.declared) return new Response(Buffer.concat(plan.pieces.filter(isBytes).map(toBytes)), init);
  const pieces = [...plan.pieces];
  const { end } = plan;
  let left = false;
  const leave = () => {
    if (!left && end !== "close") hungUp();
    left = true;
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(c) {
      for (;;) {
        const piece = pieces.shift();
        if (piece === undefined) break;
        if (!isBytes(piece)) {
          await Bun.sleep(piece.waitMs);
          continue;
        }
        c.enqueue(toBytes(piece));
        return;
      }
      if (end === "close") c.close();
      else if (typeof end === "object") c.enqueue(encoder.encode(end.repeat));
      else if (signal.aborted) leave(), c.close();
      else await new Promise<void>((resolve) => signal.addEventListener("abort", () => (leave(), c.close(), resolve()), { once: true }));
    },
    cancel: leave,
  });
  return new Response(body, init);
}

const isBytes = (piece: Piece): piece is string | Uint8Array => typeof piece === "string" || piece instanceof Uint8Array;
const toBytes = (piece: string | Uint8Array) => (typeof piece === "string" ? encoder.encode(piece) : piece);

/** The fault names `family` knows, for the error that answers an unknown one. */
export function faultNames(family: FaultFamily): string[] {
  return ["hang", ...TABLES.flatMap((table) => Object.keys(table[family]))].map((n) => `fault-${n}`);
}
