/**
 * The mock provider's fault steers: a model named `fault-<name>` is answered with a
 * misbehaviour from stream-faults.ts or answer-faults.ts instead of the simulator's answer.
 * Each fault is a plan, a pure description of the bytes to send and how (one network write
 * a piece, pauses, a body held open); `sendPlan` is the one place that turns a plan into a
 * Response, so the faults stay data a test can read and compare.
 */
import { ANSWER_FAULTS, answerFault } from "./answer-faults.ts";
import { STREAM_FAULTS, streamFault } from "./stream-faults.ts";

/** One network write, or a pause between writes. */
export type Piece = string | Uint8Array | { waitMs: number };

export interface FaultPlan {
  status: number;
  headers: Record<string, string>;
  pieces: Piece[];
  /** After the pieces: end the body, or hold it open (neither ending nor failing) until the client hangs up. */
  end: "close" | "hold";
}

/** Which wire format the request came in on: the fault answers in that format's shapes. */
export type FaultFamily = "chat" | "messages";

/** What a fault may quote: the model asked for, and the key it was sent (as providers that quote it in errors do). */
export interface FaultContext {
  model: string;
  key: string;
}

const STEER = /(?:^|[./])fault-([a-z0-9-]+)$/;
const encoder = new TextEncoder();

/** The fault a model name asks for (`fault-stall` and `chat.fault-stall` are `stall`), or undefined when it asks for none. */
export function faultSteer(model: string): string | undefined {
  return STEER.exec(model)?.[1];
}

/** The plan for `name` in `family`, or undefined when that fault has no form in that format. */
export function faultPlan(name: string, family: FaultFamily, ctx: FaultContext): FaultPlan | undefined {
  return streamFault(name, family, ctx) ?? answerFault(name, family, ctx);
}

/** Sends a plan: each piece its own write, in order; a held body is closed only once `signal` (the client) is gone. */
export function sendPlan(plan: FaultPlan, signal: AbortSignal): Response {
  const pieces = [...plan.pieces];
  const body = new ReadableStream<Uint8Array>({
    async pull(c) {
      for (;;) {
        const piece = pieces.shift();
        if (piece === undefined) {
          if (plan.end === "close") c.close();
          else if (signal.aborted) c.close();
          else await new Promise<void>((resolve) => signal.addEventListener("abort", () => (c.close(), resolve()), { once: true }));
          return;
        }
        if (typeof piece === "object" && "waitMs" in piece) {
          await Bun.sleep(piece.waitMs);
          continue;
        }
        c.enqueue(typeof piece === "string" ? encoder.encode(piece) : piece);
        return;
      }
    },
  });
  return new Response(body, { status: plan.status, headers: plan.headers });
}

/** The fault names `family` knows, for the error that answers an unknown one. */
export function faultNames(family: FaultFamily): string[] {
  return [...STREAM_FAULTS[family], ...ANSWER_FAULTS[family]].map((n) => `fault-${n}`);
}
