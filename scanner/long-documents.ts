/**
 * Long training documents built from the training rows. The public rows are short
 * (a median benign row is 68 characters), but the classifier judges long texts by
 * windows of WINDOW features: a window of pasted prose has ten times the features of
 * any row, and a model fitted only to short rows scored such windows near its
 * threshold. So training also sees full windows of benign rows run together
 * (negatives) and short attacks buried among benign rows (positives), built only
 * from the rows being trained on (never from held-out rows) and seeded, so the
 * weights stay reproducible.
 */
import { featureHashes, WINDOW } from "../src/pipeline/scan/classifier-features.ts";
import type { Row } from "./train.ts";

export interface LongDocument {
  text: string;
  /** The feature range to learn from: a full window (holding the attack, for an attack). */
  start: number;
  end: number;
  label: 0 | 1;
}

/** Benign documents made, one per this many benign rows. */
const BENIGN_ROWS_PER_DOCUMENT = 2;
/** Attacks at most this many features long are buried; longer ones are documents already. */
const BURIED_ATTACK_FEATURES = WINDOW / 4;

export function longDocuments(rows: Row[], next: () => number): LongDocument[] {
  const benign = rows.filter((r) => r.category === "benign").map((r) => r.text);
  if (!benign.length) return [];
  const pick = () => benign[Math.floor(next() * benign.length)] as string;
  let scratch: Uint32Array = new Uint32Array(4096);
  const features = (text: string): number => {
    const { hashes, length } = featureHashes(text, scratch);
    scratch = hashes;
    return length;
  };
  /** Benign rows run together until they fill `budget` features. */
  const prose = (budget: number): string => {
    let text = "";
    while (features(text) < budget) text += `${pick()}\n\n`;
    return text;
  };
  const out: LongDocument[] = [];
  for (let i = 0; i < benign.length / BENIGN_ROWS_PER_DOCUMENT; i++) {
    const text = prose(WINDOW);
    out.push({ text, start: 0, end: Math.min(WINDOW, features(text)), label: 0 });
  }
  for (const attack of rows.filter((r) => r.category === "injection")) {
    const size = features(attack.text);
    if (size > BURIED_ATTACK_FEATURES) continue;
    // The attack somewhere in a full window of prose: before it, a random share of the rest.
    const before = prose(Math.floor(next() * (WINDOW - size)));
    const text = `${before}${attack.text}\n\n${prose(WINDOW)}`;
    // A full window from the start; should the prose before overshoot, the window ending with the attack.
    const start = Math.max(0, features(before + attack.text) - WINDOW);
    out.push({ text, start, end: Math.min(features(text), start + WINDOW), label: 1 });
  }
  return out;
}
