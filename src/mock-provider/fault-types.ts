/**
 * The shapes of the mock provider's fault plans (fault-plan.ts), apart so the fault
 * families can name them without importing the dispatcher that imports them.
 */

/** One network write, or a pause between writes. */
export type Piece = string | Uint8Array | { waitMs: number };

export interface FaultPlan {
  status: number;
  headers: Record<string, string>;
  pieces: Piece[];
  /**
   * After the pieces: end the body, hold it open (neither ending nor failing) until the
   * client hangs up, or write `repeat` again and again until it does.
   */
  end: "close" | "hold" | { repeat: string };
  /** Send the pieces as one body with its Content-Length (pauses are not kept), not in writes of their own. */
  declared?: boolean;
  /** Send nothing at all, not even the status, until the client hangs up. */
  hang?: boolean;
}

/** Which wire format the request came in on: the fault answers in that format's shapes. */
export type FaultFamily = "chat" | "messages";

/** A family of faults (stream, answer, body): each format's faults by name (fault-plan.ts looks them up). */
export type FaultTable = Record<FaultFamily, Record<string, (c: FaultContext) => FaultPlan>>;

/** What a fault may quote: the model asked for, and the key it was sent (as providers that quote it in errors do). */
export interface FaultContext {
  model: string;
  key: string;
}
