/**
 * The caller's stop sequences applied to a simulated text answer (chat `stop`, messages
 * `stop_sequences`): the answer ends just before the first one it contains, which is
 * not part of it, as a model stops.
 */

/** OpenAI takes at most 4; the messages format more. The simulator reads the first few only, to stay bounded. */
const MAX_SEQUENCES = 16;

export interface StopCut {
  text: string;
  /** The sequence that stopped the answer (the messages format reports it). */
  sequence: string;
}

/** The text cut before the earliest stop sequence it contains, or null when none occurs. */
export function cutAtStop(text: string, stop: unknown): StopCut | null {
  const sequences = (typeof stop === "string" ? [stop] : Array.isArray(stop) ? stop : [])
    .slice(0, MAX_SEQUENCES)
    .filter((s): s is string => typeof s === "string" && s !== "");
  let best: StopCut | null = null;
  let at = Number.POSITIVE_INFINITY;
  for (const sequence of sequences) {
    const i = text.indexOf(sequence);
    if (i >= 0 && i < at) {
      at = i;
      best = { text: text.slice(0, i), sequence };
    }
  }
  return best;
}
