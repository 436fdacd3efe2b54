/**
 * Personal data: e-mail addresses, phone numbers (international, and national ones in
 * the organization's phone region), US social security numbers,
 * payment cards (Luhn-checked, known issuers) and IBANs (mod-97-checked). The
 * validators keep order numbers, versions and dates from being taken for PII.
 */
import type { Detector } from "./detector.ts";
import { chineseMobileValid, labelledOtherwise, nationalPhoneValid, SHORT_PHONE_LABEL } from "./phone-numbers.ts";
import { cardIssuerKnown, ibanValid, luhnValid, phoneValid, ssnValid } from "./validators.ts";

export const PII_DETECTORS: Detector[] = [
  {
    kind: "EMAIL",
    category: "pii",
    pattern: "\\b[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\\.[A-Za-z0-9-]{1,63}){0,8}\\.[A-Za-z]{2,24}\\b",
    start: { at: "before-at" },
  },
  {
    kind: "SSN",
    category: "pii",
    pattern: "\\b\\d{3}(?:-\\d{2}-|\\.\\d{2}\\.| \\d{2} )\\d{4}\\b",
    validate: ssnValid,
    start: { at: "digit-word" },
  },
  {
    kind: "CARD",
    category: "pii",
    pattern: "\\b\\d(?:[ -]?\\d){12,18}\\b",
    // A Luhn-valid run labelled as a tracking or order number is one (one in ten random numbers passes Luhn).
    validate: (m, text, index) => luhnValid(m) && cardIssuerKnown(m) && !labelledOtherwise(text, index),
    start: { at: "digit-word" },
  },
  {
    kind: "IBAN",
    category: "pii",
    pattern: "\\b[A-Z]{2}\\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\\b",
    validate: ibanValid,
    start: { at: "caps-digits-word" },
  },
  {
    kind: "PHONE",
    category: "pii",
    // International (+CC ...) or North American (NXX) NXX-XXXX forms; separators required where digits could be anything else.
    pattern:
      "(?:\\+[1-9]\\d{0,2}[ .-]?(?:\\(\\d{1,4}\\)[ .-]?)?\\d{1,4}(?:[ .-]?\\d{2,4}){1,4}|\\(\\d{3}\\) ?\\d{3}[-. ]\\d{4}|\\b\\d{3}[-.]\\d{3}[-.]\\d{4})\\b",
    validate: phoneValid,
    start: [{ at: "digit-word" }, { at: "signed-number" }],
  },
  // Chinese mobiles: 11 digits, no trunk 0.
  { kind: "PHONE", category: "pii", pattern: "\\b1[3-9]\\d{9}\\b", validate: chineseMobileValid, start: { at: "digit-word" } },
  // National formats without `+`, read in the organization's phone region (phone-numbers.ts): `15-976-47-73`, `030 1234567`, `(02) 9876 5432`.
  // Groups are split by exactly one separator, so a run is read one way only. The lookahead wants seven digits first,
  // or a phone label right before (small territories dial five or six: St Helena `51234`): a match builds the engine's
  // whole group array, and most numbers in a text are short and unlabelled.
  {
    kind: "PHONE",
    category: "pii",
    pattern: `(?:\\(\\d{1,5}\\) ?|\\b(?=\\d(?:[ ./-]?\\d){6}|(?<=${SHORT_PHONE_LABEL})\\d{2}))\\d{1,12}(?:[ ./-]\\d{1,12}){0,5}\\b`,
    validate: nationalPhoneValid,
    start: [{ at: "digit-word" }, { at: "signed-number" }],
  },
];
