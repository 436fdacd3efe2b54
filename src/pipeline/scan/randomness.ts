/**
 * Whether a value was made by a machine (a key generator, a token service) rather than
 * written by a person or a program's naming: a character model fitted on the pools' words,
 * identifiers and paths against generated tokens (scanner/fit-randomness.ts), and the
 * structures that look random but name something (UUIDs, versions, resource names with a
 * hash suffix, paths of words).
 */
import { features } from "./randomness-features.ts";
import { BIGRAM_BITS, THRESHOLD, WEIGHTS } from "./randomness-model.ts";
import { looksLikePlaceholder } from "./validators.ts";

/** The model's score: above THRESHOLD, random. */
export function randomnessScore(value: string): number {
  const x = features(value, BIGRAM_BITS);
  let s = WEIGHTS[x.length] as number;
  for (let i = 0; i < x.length; i++) s += (x[i] as number) * (WEIGHTS[i] as number);
  return s;
}

const TOKEN = /^[A-Za-z0-9+/=_.~-]+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const VERSION = /^v?\d+(?:\.\d+)+(?:[-+][\w.-]*)?$/i;
/** Pure hex is random by construction; whether it is a key or a digest the words around it say (credential-generic.ts). */
export const HEX = /^[0-9a-f]{16,}$/i;

/** A part between separators that reads as a word: letters only, and not random by the model. */
const wordy = (part: string) => part.length >= 3 && /^[A-Za-z]+$/.test(part) && randomnessScore(part) <= THRESHOLD;

/**
 * Words joined by separators make most of the value: a path (`/var/lib/app`), a resource
 * with a generated suffix (`api-gateway-7d9f8b6c5-x2k4p`), a dotted name. Two such words
 * cover half of it or more.
 */
export function namesSomething(value: string): boolean {
  const parts = value.split(/[-_./]+/);
  // Short lower-case parts joined by dashes or underscores, one of them a word: a resource's name (`my-app-tls-7f9c8d6b5-x2k4p`);
  // a vendor's prefix before a long body (`packagist_ort_6675e11a…`) and hex in groups (a UUID-shaped key) are tokens.
  if (/^[a-z0-9]{1,12}(?:[-_][a-z0-9]{1,12}){2,}$/.test(value) && !/^[0-9a-f-]+$/.test(value) && parts.some(wordy)) return true;
  const words = parts.filter(wordy);
  return words.length >= 2 && words.reduce((n, w) => n + w.length, 0) * 2 >= value.replace(/[-_./]/g, "").length;
}

/** A value of 12 to 256 token characters that a machine generated, not a placeholder, an id or a name. */
export function machineRandom(value: string): boolean {
  if (value.length < 12 || value.length > 256 || !TOKEN.test(value)) return false;
  if (/^\d+$/.test(value) || UUID.test(value) || VERSION.test(value) || looksLikePlaceholder(value)) return false;
  if (HEX.test(value)) return true;
  if (namesSomething(value)) return false;
  return randomnessScore(value) > THRESHOLD;
}
