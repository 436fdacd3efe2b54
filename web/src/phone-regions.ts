/**
 * The regions `phoneRegion` accepts, for the Preferences page's select. A Bun macro: the
 * bundler runs it at build time and inlines the list, so the browser gets the codes (a few
 * hundred bytes) without libphonenumber-js's metadata, and the list is the server's own rule.
 */
import { getCountries } from "libphonenumber-js/max";
import { isPhoneRegion } from "../../src/pipeline/scan/phone-numbers.ts";

export function phoneRegions(): string[] {
  return getCountries().filter(isPhoneRegion).sort();
}
