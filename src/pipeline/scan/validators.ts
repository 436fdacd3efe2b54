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

/** Issuer prefixes of the card networks people actually carry. */
export function cardIssuerKnown(raw: string): boolean {
  const d = raw.replace(/[ -]/g, "");
  return /^(4|5[1-5]|2[2-7]|3[47]|6(?:011|5|4[4-9])|35|3(?:0[0-5]|[68]))/.test(d);
}

const IBAN_LENGTHS: Record<string, number> = {
  AD: 24, AE: 23, AT: 20, BE: 16, BG: 22, CH: 21, CY: 28, CZ: 24, DE: 22, DK: 18, EE: 20, ES: 24, FI: 18, FR: 27, GB: 22, GR: 27,
  HR: 21, HU: 28, IE: 22, IS: 26, IT: 27, LI: 21, LT: 20, LU: 20, LV: 21, MC: 27, MT: 31, NL: 18, NO: 15, PL: 28, PT: 25, RO: 24,
  SA: 24, SE: 24, SI: 19, SK: 24, SM: 27, TR: 26, IL: 23, QA: 29, KW: 30, BH: 22, JO: 30, EG: 29, BR: 29, TN: 24, MA: 28, PK: 24,
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
  const [area, group, serial] = raw.split("-");
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

const PLACEHOLDER = /x{4,}|\*{3,}|\.{3}|<[^>]*>|\$\{|\{\{|your[_-]?|example|sample|dummy|placeholder|redacted|changeme|replace[_-]?me|insert|test[_-]?key|fake|foobar|12345678|abcdefgh/i;

/** Documentation placeholders and obviously fake values are not secrets. */
export function looksLikePlaceholder(value: string): boolean {
  return PLACEHOLDER.test(value) || /(.)\1{5,}/.test(value) || entropy(value) < 2.5;
}

/** A secret-looking token must be random enough and not a placeholder. */
export function secretLike(value: string, minEntropy = 3.0): boolean {
  return !looksLikePlaceholder(value) && entropy(value) >= minEntropy;
}

/** Code that reads a secret from the environment or a vault is not a leaked secret. */
export function readsFromEnvironment(value: string): boolean {
  return /^(?:os\.environ|os\.getenv|process\.env|env\(|getenv|System\.getenv|ENV\[|\$[A-Z_]|%[A-Z_]+%|vault|secrets\.|config\.)/i.test(value);
}
