/** Checks that turn pattern candidates into findings: checksums, entropy, placeholders. */

/** Payment card numbers: Luhn checksum over 13 to 19 digits. */
export function luhnValid(raw: string): boolean {
  const digits = raw.replace(/[ -]/g, "");
  if (digits.length < 13 || digits.length > 19) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0 && !/^(\d)\1+$/.test(digits);
}

/**
 * Issuer identification ranges of the major networks: Visa 4; Mastercard 51-55 and
 * 2221-2720; Maestro 50, 56-69; American Express 34, 37; Diners 300-305, 36, 38, 39;
 * JCB 3528-3589; Discover 6011, 644-649, 65; UnionPay 62, 81; RuPay 60, 65, 81, 82,
 * 508; Mir 2200-2204; Troy 9792; Verve 506, 507, 650.
 */
export function cardIssuerKnown(raw: string): boolean {
  const d = raw.replace(/[ -]/g, "");
  return /^(?:4|5[0-9]|2(?:2[0-9]|[3-6]|7[0-2])|3[47]|3(?:0[0-5]|[689])|35(?:2[89]|[3-8])|6|8[12]|9792)/.test(d);
}

/** IBAN lengths by country, from the SWIFT IBAN registry. */
const IBAN_LENGTHS: Record<string, number> = {
  AD: 24,
  AE: 23,
  AL: 28,
  AT: 20,
  AZ: 28,
  BA: 20,
  BE: 16,
  BG: 22,
  BH: 22,
  BI: 27,
  BR: 29,
  BY: 28,
  CH: 21,
  CR: 22,
  CY: 28,
  CZ: 24,
  DE: 22,
  DJ: 27,
  DK: 18,
  DO: 28,
  EE: 20,
  EG: 29,
  ES: 24,
  FI: 18,
  FK: 18,
  FO: 18,
  FR: 27,
  GB: 22,
  GE: 22,
  GI: 23,
  GL: 18,
  GR: 27,
  GT: 28,
  HN: 28,
  HR: 21,
  HU: 28,
  IE: 22,
  IL: 23,
  IQ: 23,
  IS: 26,
  IT: 27,
  JO: 30,
  KW: 30,
  KZ: 20,
  LB: 28,
  LC: 32,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  LY: 25,
  MC: 27,
  MD: 24,
  ME: 22,
  MK: 19,
  MN: 20,
  MR: 27,
  MT: 31,
  MU: 30,
  NI: 28,
  NL: 18,
  NO: 15,
  OM: 23,
  PK: 24,
  PL: 28,
  PS: 29,
  PT: 25,
  QA: 29,
  RO: 24,
  RS: 22,
  RU: 33,
  SA: 24,
  SC: 31,
  SD: 18,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  SO: 23,
  ST: 25,
  SV: 28,
  TL: 23,
  TN: 24,
  TR: 26,
  UA: 29,
  VA: 22,
  VG: 24,
  XK: 20,
  YE: 30,
};

/** IBAN: the country's length and the ISO 13616 mod-97 check. */
export function ibanValid(raw: string): boolean {
  const iban = raw.replace(/ /g, "").toUpperCase();
  if (IBAN_LENGTHS[iban.slice(0, 2)] !== iban.length) return false;
  const moved = iban.slice(4) + iban.slice(0, 4);
  let rem = 0;
  for (const ch of moved) {
    const code = ch.charCodeAt(0);
    const value = code >= 65 ? String(code - 55) : ch;
    for (const digit of value) rem = (rem * 10 + (digit.charCodeAt(0) - 48)) % 97;
  }
  return rem === 1;
}

/** US social security numbers: never area 000, 666 or 9xx, group 00 or serial 0000. */
export function ssnValid(raw: string): boolean {
  const [area, group, serial] = raw.split(/[-. ]/);
  return area !== "000" && area !== "666" && !area?.startsWith("9") && group !== "00" && serial !== "0000";
}

/** Phone numbers: 10 to 15 digits, not one digit repeated, not a run like 1234567890. */
export function phoneValid(raw: string): boolean {
  const digits = raw.replace(/\D/g, "");
  if (digits.length < 10 || digits.length > 15) return false;
  if (/^(\d)\1+$/.test(digits) || "01234567890123456789".includes(digits) || "98765432109876543210".includes(digits)) return false;
  return true;
}

/** Shannon entropy in bits per character. */
export function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

/**
 * Documentation words and runs; and the keys Microsoft publishes for its local emulators (Azurite's storage key
 * `Eby8vdM02xNOcqFl…`, the Cosmos DB emulator's `C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM…`), which open nothing but the
 * emulator on the developer's own machine, as AWS's `…EXAMPLE` keys open nothing.
 */
const PLACEHOLDER =
  /Eby8vdM02xNOcqFl|C2y6yDjf5\/R\+ob0N8A7Cgv30VRDJIWEHLM|x{4,}|\*{3,}|\.{3}|<[^>]*>|\$\{|\{\{|your[_-]?|example|sample|dummy|placeholder|redacted|change[_-]?(?:me|it)|replace[_-]?me|insert|test[_-]?key|fake|foobar|12345678|abcdef/i;

/** A documentation word (`your-`, `example`, `changeme`, `<...>`, `***`) anywhere in the value. */
export const hasPlaceholderWord = (value: string) => PLACEHOLDER.test(value);

/** Documentation placeholders and obviously fake values are not secrets. */
export function looksLikePlaceholder(value: string): boolean {
  return PLACEHOLDER.test(value) || /(.)\1{5,}/.test(value) || entropy(value) < 2.5 || SPELLED_TEST.test(value);
}

/**
 * A value that spells `test` twice or more (`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`): written by hand to look like a
 * token; random characters hold the word once in tens of thousands of tokens, twice almost never (`sk_test_…` holds it once).
 */
const SPELLED_TEST = /test.*?test/i;

/** Percent-encoding decoded; text that is not valid encoding (`%zz`, a cut UTF-8 sequence) as it is, since prompts are anyone's to write. */
export function percentDecoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** A secret-looking token must be random enough and not a placeholder. */
export function secretLike(value: string, minEntropy = 3.0): boolean {
  return !looksLikePlaceholder(value) && entropy(value) >= minEntropy;
}

/** The token after a vendor's known prefix must look random (placeholders like `sk-xxxx` or `whsec_YOUR_SECRET` do not). */
export const randomAfter =
  (prefix: RegExp, minEntropy = 3.0) =>
  (m: string): boolean =>
    secretLike(m.replace(prefix, ""), minEntropy);

/** Code that reads a secret from the environment or a vault is not a leaked secret. */
export function readsFromEnvironment(value: string): boolean {
  return /^(?:os\.environ|os\.getenv|process\.env|env\(|getenv|System\.getenv|System\.getProperty|ENV\[|\$[A-Z_]|%[A-Z_]+%|%env\(|vault|secrets\.|secrets\[|config\.)/i.test(
    value,
  );
}

/**
 * A base64 value (a Kubernetes Secret's `data:`) that decodes to a placeholder (`Y2hhbmdlbWU=` is `changeme`) or a
 * word too plain to be a secret is documentation. Values that do not decode to text (keys, archives) stand.
 */
export function decodesToPlaceholder(value: string): boolean {
  let decoded: string;
  try {
    decoded = atob(value.replace(/[^A-Za-z0-9+/=]/g, ""));
  } catch {
    return false;
  }
  if (/[^\x20-\x7e\t\r\n]/.test(decoded)) return false;
  const v = decoded.trim();
  return v.length < 4 || looksLikePlaceholder(v);
}
