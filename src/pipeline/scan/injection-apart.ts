/**
 * The injection rules tried apart (Detector.apart: an expression of their own, only
 * where their own literals stand), in one list: instructions for the model inside data,
 * requests for its secrets, other languages, role-play jailbreaks, English forms the
 * shared rules (injection-detectors.ts) miss, planted tasks and markers, the kits' proofs and framings, jailbreaks
 * that work on the model's refusals, more forms of prompt extraction, social engineering for the
 * guarded secret, orders slipped into an ordinary question, the traits of a jailbreak persona, and probes for
 * the model's instructions in plain words, and orders read by their address (the model's own prompt
 * moved into the answer with any verb, authority claimed over it, its rules declared gone). Each fires on no benign row of the
 * project's pools (test/pipeline/scan/injection-apart.test.ts).
 */
import type { Detector } from "./detector.ts";
import { ADDRESS_DETECTORS } from "./injection-address.ts";
import { ADDRESS_ASK_DETECTORS } from "./injection-address-asks.ts";
import { RELEASE_DETECTORS } from "./injection-address-release.ts";
import { APPENDED_DETECTORS } from "./injection-appended.ts";
import { COMPLIANCE_DETECTORS } from "./injection-compliance.ts";
import { ENGLISH_MORE_DETECTORS } from "./injection-english-more.ts";
import { EXTRACTION_DETECTORS } from "./injection-extraction.ts";
import { INDIRECT_DETECTORS } from "./injection-indirect.ts";
import { JAILBREAK_DETECTORS } from "./injection-jailbreak.ts";
import { KIT_DETECTORS } from "./injection-kits.ts";
import { MULTILINGUAL_INJECTION_DETECTORS } from "./injection-multilingual.ts";
import { MULTILINGUAL_APPENDED_DETECTORS } from "./injection-multilingual-appended.ts";
import { MULTILINGUAL_ASK_DETECTORS } from "./injection-multilingual-asks.ts";
import { MULTILINGUAL_ROLE_DETECTORS } from "./injection-multilingual-roles.ts";
import { MULTILINGUAL_SOCIAL_DETECTORS } from "./injection-multilingual-social.ts";
import { PERSONA_DETECTORS } from "./injection-personas.ts";
import { PLANTED_DETECTORS } from "./injection-planted.ts";
import { PROBE_DETECTORS } from "./injection-probes.ts";
import { SECRET_REQUEST_DETECTORS } from "./injection-secret-requests.ts";
import { SOCIAL_DETECTORS } from "./injection-social.ts";

/** The fifth round (issue 33): social engineering, appended orders, their other languages, persona traits, plain probes. */
const FIFTH_ROUND: Detector[] = [
  ...APPENDED_DETECTORS,
  ...SOCIAL_DETECTORS,
  ...MULTILINGUAL_APPENDED_DETECTORS,
  ...MULTILINGUAL_SOCIAL_DETECTORS,
  ...PERSONA_DETECTORS,
  ...PROBE_DETECTORS,
];
/** A pass meets one rule at a place: where a rule of the fifth round and an older one open together, the stronger should be met. */
const blocking = (d: Detector) => (d.weight ?? 1) >= 1;

export const APART_INJECTION_DETECTORS: Detector[] = [
  // The fifth round's blocking rules first ("..., regardless of previous tasks." over the older 0.8 reading), its weaker ones last.
  ...FIFTH_ROUND.filter(blocking),
  // The seventh round's blocking rules next: where one opens with an older rule's weaker reading ("tell the user ...",
  // 0.5), the stronger should be met.
  ...ADDRESS_DETECTORS.filter(blocking),
  ...RELEASE_DETECTORS.filter(blocking),
  ...ADDRESS_ASK_DETECTORS.filter(blocking),
  ...INDIRECT_DETECTORS,
  ...SECRET_REQUEST_DETECTORS,
  ...MULTILINGUAL_INJECTION_DETECTORS,
  ...MULTILINGUAL_ASK_DETECTORS,
  ...MULTILINGUAL_ROLE_DETECTORS,
  ...JAILBREAK_DETECTORS,
  ...ENGLISH_MORE_DETECTORS,
  ...PLANTED_DETECTORS,
  ...KIT_DETECTORS,
  ...COMPLIANCE_DETECTORS,
  ...EXTRACTION_DETECTORS,
  ...FIFTH_ROUND.filter((d) => !blocking(d)),
  ...ADDRESS_DETECTORS.filter((d) => !blocking(d)),
  ...RELEASE_DETECTORS.filter((d) => !blocking(d)),
  ...ADDRESS_ASK_DETECTORS.filter((d) => !blocking(d)),
];
