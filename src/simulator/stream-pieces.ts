/** Splits a simulated answer into the pieces a stream carries: one per word, or exactly N. */

/**
 * `text` in `n` pieces that join back to it: whole words when it has at least `n`
 * words, else characters (fewer pieces only when it has fewer than `n` characters).
 * Without `n`, one piece per word, as a model streams roughly a token at a time.
 */
export function splitPieces(text: string, n?: number): string[] {
  const words = text.split(" ").map((w, i) => (i === 0 ? w : ` ${w}`));
  if (n === undefined) return words;
  const units = words.length >= n ? words : Array.from(text);
  const count = Math.max(1, Math.min(n, units.length));
  const pieces: string[] = [];
  for (let i = 0; i < count; i++)
    pieces.push(units.slice(Math.floor((i * units.length) / count), Math.floor(((i + 1) * units.length) / count)).join(""));
  return pieces;
}
