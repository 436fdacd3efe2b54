/**
 * Phone numbers written without a country code, read the way the organization's
 * callers write them: valid in its region (`phoneRegion`, libphonenumber-js's
 * numbering plans, Google's maintained metadata), or, written with a trunk 0, in one
 * of the countries whose numbers its users most often meet. Look-alikes (dates,
 * versions, IP addresses, order and tracking numbers, ISBNs, amounts, timestamps)
 * are turned down before the library is asked.
 */
import { type CountryCode, isSupportedCountry, isValidPhoneNumber, parsePhoneNumberFromString } from "libphonenumber-js/max";

export const DEFAULT_PHONE_REGION = "US";

/** The countries of the supported locales and the main calling partners: their trunk-0 national numbers count in every region. */
const TRUNK_ZERO_COUNTRIES: readonly CountryCode[] = [
  "DE",
  "FR",
  "GB",
  "IT",
  "NL",
  "BE",
  "AT",
  "CH",
  "SE",
  "NO",
  "DK",
  "FI",
  "IE",
  "AU",
  "NZ",
  "JP",
  "KR",
  "IN",
  "BR",
  "AR",
  "ZA",
  "TR",
  "UA",
  "IL",
];

/** A region code the library knows (ISO 3166 alpha-2, upper case). */
export const isPhoneRegion = (code: string): code is CountryCode => /^[A-Z]{2}$/.test(code) && isSupportedCountry(code);

/**
 * Valid in `country` as written. Where the country's own national format writes the
 * trunk 0 (Germany `030 …`, the UK `020 …`), digits without it are no national number
 * there; where it does not (Brazil `(11) 96123-4567`, China `131 2345 6789`, Peru
 * `912 345 678`), numbers are written without it, though a trunk 0 is dialled.
 */
function validIn(candidate: string, country: CountryCode): boolean {
  const parsed = parsePhoneNumberFromString(candidate, country);
  if (!parsed?.isValid()) return false;
  return /^\(?0/.test(candidate) || !/^\(?0/.test(parsed.formatNational());
}

/** A phone word a few words before the number; four signs after it fit JSON's `"phone": "`. */
const PHONE_WORDS =
  /\b(?:phone|tel|call|mobile|cell|fax|whatsapp|sms|text me|contact|reach|ring|dial|hotline|telefon|telefono|teléfono|téléphone|tél|móvil|movil|cellulare|handy|rufnummer|numer|nummer|portable|gsm|kom\.?|tlf)(?![a-z])\W{0,4}(?:\w{1,12}\W{1,3}){0,3}$/i;
/**
 * A phone label right before a number (`phone: 51234`, `"Tel": "51234"`): case-sensitive, capitalized or not, as the
 * national pattern's own expression is. Numbers of five or six digits count only after one.
 */
export const SHORT_PHONE_LABEL =
  "\\b(?:[Pp]hone|PHONE|[Tt]el|TEL|[Mm]obile|[Cc]ell|[Tt]elefon|[Tt]elefono|[Tt]eléfono|[Tt]éléphone|[Tt]él|[Hh]andy|[Nn]umer|[Tt]lf)[\"']?[ \\t]{0,2}:?[ \\t]{0,2}[\"']?";
const SHORT_LABEL = new RegExp(`${SHORT_PHONE_LABEL}$`);
const OTHER_WORDS =
  /\b(?:order|invoice|receipt|tracking|track|shipment|parcel|package|awb|ref|reference|account|acct|ticket|case|issue|isbn|issn|sku|serial|s\/n|model|part|item|po|transaction|txn|confirmation|booking|reservation|policy|customer|member|id|no\.|nr\.?|patent|lot|batch|version|release|build|ver|v|port|pid|zip|postcode|plz|code|pin|otp|amount|total|price|balance|population|isbn-1[03])(?![a-z])\W{0,3}(?:\w{1,12}\W{1,3}){0,2}$/i;
const UNIT_AFTER =
  /^\s?(?:€|\$|£|¥|%|zł|pln|eur|usd|gbp|chf|sek|nok|dkk|kr|km|kg|mb|gb|kb|ms|px|rows|users|bytes|records|items|times)(?![a-z])/i;

/** A calendar date, optionally with a time: `2024-01-15`, `15.01.2024`, `01/15/24 10`. */
function dateLike(groups: string[], seps: string[]): boolean {
  const [a, b, c] = groups.map(Number) as [number, number, number];
  // Three groups, or three and a time after another separator (`15.01.2024 10`): `06 12 34 56 78` is no date.
  if (groups.length < 3 || groups.length > 5 || (groups.length > 3 && seps[2] === seps[0])) return false;
  const [ga, , gc] = groups as [string, string, string];
  const year = (s: string) => s.length === 4 || s.length === 2;
  if (ga.length === 4 && b >= 1 && b <= 12 && c >= 1 && c <= 31) return true;
  return year(gc) && a >= 1 && a <= 31 && b >= 1 && b <= 31 && (a <= 12 || b <= 12);
}

/** Shapes and surroundings that make a digit run something other than a phone number. */
function lookAlike(candidate: string, text: string, index: number): boolean {
  const groups = candidate.split(/[^0-9]+/).filter(Boolean);
  const digits = groups.join("");
  const seps = candidate.split(/[0-9]+/).slice(1, -1);
  if (dateLike(groups, seps)) return true;
  // IP addresses, dotted versions (`10.0.19041.1234`), and numbers inside a longer dotted or hyphenated code.
  const ip = /^\d{1,3}(?:\.\d{1,3}){3}$/.test(candidate) && groups.every((g) => Number(g) <= 255);
  if (ip || (seps.every((s) => s === ".") && groups.some((g) => g.length === 1))) return true;
  const before = text.charAt(index - 1);
  const after = text.slice(index + candidate.length, index + candidate.length + 2);
  if (/[./#\w-]/.test(before) || /^[.:/-]\d|^[\w@]/.test(after)) return true;
  // ISBN-13 (978/979), ascending runs and repeated digits.
  if (/^97[89]\d{10}$/.test(digits) || /^(\d)\1+$/.test(digits.slice(1)) || "012345678909876543210".includes(digits)) return true;
  if (
    /[$€£¥]\s?$/.test(text.slice(Math.max(0, index - 3), index)) ||
    UNIT_AFTER.test(text.slice(index + candidate.length, index + candidate.length + 10))
  )
    return true;
  return labelledOtherwise(text, index);
}

/** The words before a number call it something else: an order, a tracking or an account number, a version. */
export function labelledOtherwise(text: string, index: number): boolean {
  const window = text.slice(Math.max(0, index - 48), index);
  return OTHER_WORDS.test(window) && !PHONE_WORDS.test(window);
}

function validNational(candidate: string, text: string, index: number, region: CountryCode): boolean {
  const digits = candidate.replace(/\D/g, "").length;
  if (digits < 7 && (digits < 5 || !SHORT_LABEL.test(text.slice(Math.max(0, index - 24), index)))) return false;
  if (digits > 13 || lookAlike(candidate, text, index)) return false;
  const trunk = /^\(?0/.test(candidate);
  // One run of digits without separators is an order number or a timestamp as often as a phone number: it needs a trunk 0 or a phone word before it.
  if (!/\D/.test(candidate) && !trunk && !PHONE_WORDS.test(text.slice(Math.max(0, index - 48), index))) return false;
  if (validIn(candidate, region)) return true;
  return trunk && TRUNK_ZERO_COUNTRIES.some((c) => c !== region && validIn(candidate, c));
}

/**
 * A digit run with single separators (`15-976-47-73`, `(02) 9876 5432`, `06.12.34.56.78`)
 * that is a valid national number in `region`. When the run goes on past a number
 * (`512 345 678 2 times`), shorter runs of its leading groups are tried.
 */
export function nationalPhoneValid(candidate: string, text: string, index: number, region: string): boolean {
  const country: CountryCode = isPhoneRegion(region) ? region : DEFAULT_PHONE_REGION;
  let run = candidate;
  for (let i = 0; i < 3; i++) {
    if (validNational(run, text, index, country)) return true;
    const cut = run.search(/[ ./-]\d+$/);
    if (cut < 0) return false;
    run = run.slice(0, cut);
  }
  return false;
}

/** Chinese mobile numbers, written as 11 digits without a trunk 0. */
export const chineseMobileValid = (candidate: string) => isValidPhoneNumber(candidate, "CN");
