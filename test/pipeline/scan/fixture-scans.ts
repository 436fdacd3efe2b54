/** What the scanner tests read: the rules' score, the whole scanner's confidence, the secret kinds a text draws, every row inside every carrier. */
import { CARRIER_KINDS, carry, random, TEMPLATES } from "../../../scanner/carriers.ts";
import { scanText } from "../../../src/pipeline/scan/engine.ts";

export const RULES = { injection: true, model: null } as const;
export const rulesScore = (text: string) => scanText(text, RULES).injectionScore;
export const confidence = (text: string) => scanText(text, { injection: true }).injectionConfidence;

/** Every row inside every carrier, the template sets alternating, from one seed. */
export function carried(rows: readonly { text: string }[]): { kind: string; text: string }[] {
  const next = random(33);
  return CARRIER_KINDS.flatMap((kind) =>
    rows.map((r, i) => ({ kind, text: carry(kind, r.text, i % 2 === 0 ? TEMPLATES.heldOut : TEMPLATES.train, next) })),
  );
}

/** The kinds of secret the scanner names in a text (its credential rules' tests compare these). */
export const secretKinds = (text: string): string[] =>
  scanText(text, { injection: false })
    .findings.filter((f) => f.category === "secret")
    .map((f) => f.kind);
