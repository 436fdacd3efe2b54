/**
 * Phone numbers written without a country code, checked against the numbering plans
 * of libphonenumber-js (Google's metadata, maintained): a candidate counts when it is
 * a valid number in one of the countries whose callers most often write them so.
 */
import { isValidPhoneNumber } from "libphonenumber-js/min";
import type { CountryCode } from "libphonenumber-js/min";

const COUNTRIES: readonly CountryCode[] = [
  "DE",
  "FR",
  "GB",
  "IT",
  "ES",
  "NL",
  "BE",
  "AT",
  "CH",
  "PL",
  "SE",
  "NO",
  "DK",
  "FI",
  "PT",
  "IE",
  "CZ",
  "HU",
  "RO",
  "GR",
  "JP",
  "KR",
  "CN",
  "IN",
  "AU",
  "NZ",
  "BR",
  "AR",
  "MX",
  "ZA",
  "TR",
  "RU",
  "UA",
  "IL",
];
/** Dates and versions share the shape of a short national number. */
const DATE_OR_VERSION = /^\d{1,4}[-./]\d{1,2}[-./]\d{1,4}$/;

export function nationalPhoneValid(candidate: string): boolean {
  const digits = candidate.replace(/\D/g, "");
  if (digits.length < 9 || digits.length > 13 || DATE_OR_VERSION.test(candidate) || /^(\d)\1+$/.test(digits.slice(1))) return false;
  return COUNTRIES.some((c) => isValidPhoneNumber(candidate, c));
}
