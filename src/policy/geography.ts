/**
 * Provider geography: a provider is authorized only if the country it runs in is
 * the United States, a NATO member, or a Major Non-NATO Ally. ISO 3166-1 alpha-2.
 *
 * Sources, as of 2026-11-22:
 * - NATO members: NATO, "NATO member countries" (nato.int), 32 members since
 *   Sweden's accession on 2024-03-07.
 * - Major Non-NATO Allies: U.S. Department of State, "Major Non-NATO Ally Status"
 *   (22 U.S.C. 2321k; 10 U.S.C. 2350a), including Colombia and Qatar (2022), Kenya
 *   (2024) and Saudi Arabia (designated November 2025); Taiwan is treated as one
 *   under the Taiwan Relations Act and 22 U.S.C. 2321k note.
 * Change this table (and its date) when those lists change; nothing else encodes them.
 */

export const NATO_MEMBERS = [
  "AL",
  "BE",
  "BG",
  "CA",
  "HR",
  "CZ",
  "DK",
  "EE",
  "FI",
  "FR",
  "DE",
  "GR",
  "HU",
  "IS",
  "IT",
  "LV",
  "LT",
  "LU",
  "ME",
  "NL",
  "MK",
  "NO",
  "PL",
  "PT",
  "RO",
  "SK",
  "SI",
  "ES",
  "SE",
  "TR",
  "GB",
  "US",
] as const;

export const MAJOR_NON_NATO_ALLIES = [
  "AR",
  "AU",
  "BH",
  "BR",
  "CO",
  "EG",
  "IL",
  "JP",
  "JO",
  "KE",
  "KW",
  "MA",
  "NZ",
  "PK",
  "PH",
  "QA",
  "SA",
  "KR",
  "TW",
  "TH",
  "TN",
] as const;

const AUTHORIZED: ReadonlySet<string> = new Set<string>(["US", ...NATO_MEMBERS, ...MAJOR_NON_NATO_ALLIES]);

export function isAuthorizedCountry(country: string | null | undefined): boolean {
  return typeof country === "string" && AUTHORIZED.has(country.toUpperCase());
}
