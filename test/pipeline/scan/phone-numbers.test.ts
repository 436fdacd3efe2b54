/**
 * National phone numbers, read in the organization's phone region: each country's
 * usual ways of writing them found, look-alikes (dates, versions, IP addresses,
 * order and tracking numbers, ISBNs, amounts, timestamps) not.
 */
import { describe, expect, test } from "bun:test";
import { scanText } from "../../../src/pipeline/scan/engine.ts";
import { isPhoneRegion } from "../../../src/pipeline/scan/phone-numbers.ts";

const phones = (text: string, phoneRegion: string) =>
  scanText(text, { injection: false, phoneRegion })
    .findings.filter((f) => f.kind === "PHONE")
    .map((f) => text.slice(f.start, f.end));
const personal = (text: string, phoneRegion: string) =>
  scanText(text, { injection: false, phoneRegion }).findings.filter((f) => f.category === "pii");

describe("national formats are found in their region", () => {
  test.each([
    ["PL", "Zadzwoń pod 15-976-47-73 jutro", "15-976-47-73"],
    ["PL", "mój numer: 512 345 678", "512 345 678"],
    ["PL", "tel. 512-345-678, po 16:00", "512-345-678"],
    ["NL", "Bel me op 020-1234567", "020-1234567"],
    ["NL", "mobiel 06-12345678", "06-12345678"],
    ["NL", "kantoor (020) 123 4567", "(020) 123 4567"],
    ["IT", "chiamami al 02 1234 5678", "02 1234 5678"],
    ["IT", "cellulare 333 123 4567", "333 123 4567"],
    ["ES", "llámame al 912 345 678", "912 345 678"],
    ["ES", "móvil 612 34 56 78", "612 34 56 78"],
    ["CA", "call me at 416 555 0123", "416 555 0123"],
    ["CA", "toll free 1-416-555-0123", "1-416-555-0123"],
    ["AU", "office (02) 9876 5432", "(02) 9876 5432"],
    ["AU", "mobile 0412 345 678", "0412 345 678"],
    ["AU", "mobile 0412345678", "0412345678"],
    ["DE", "Ruf an: 030 12345678", "030 12345678"],
    ["DE", "Büro 089/12345678", "089/12345678"],
    ["FR", "appelez le 06.12.34.56.78", "06.12.34.56.78"],
    ["FR", "bureau 01 42 68 53 00", "01 42 68 53 00"],
    ["GB", "ring 020 7946 0958", "020 7946 0958"],
    ["GB", "mobile 07911 123456", "07911 123456"],
    ["US", "reach me at 212 555 0147", "212 555 0147"],
    ["US", "call 5123456789 after six", "5123456789"],
    // A trunk 0 is dialled there, but numbers are written without it (the library's national format omits it).
    ["BR", "celular (11) 96123-4567", "(11) 96123-4567"],
    ["CN", "电话 phone: 131 2345 6789", "131 2345 6789"],
    ["PE", "celular 912 345 678", "912 345 678"],
    // Small territories dial five or six digits: counted right after a phone label, in JSON too.
    ["SH", "phone: 51234", "51234"],
    ["SH", '{"name": "Ann", "phone": "51234"}', "51234"],
    ["FO", "Tel: 211234", "211234"],
    ["PL", '{"customer": {"phone": "512345678"}}', "512345678"],
  ])("%s: %p", (region, text, number) => {
    expect(phones(text, region)).toEqual([number]);
  });

  test("a number written with a trunk 0 counts in any region; one without needs the right region", () => {
    expect(phones("Ruf an: 030 12345678", "US")).toEqual(["030 12345678"]);
    expect(phones("Zadzwoń pod 15-976-47-73", "US")).toEqual([]);
    expect(phones("Zadzwoń pod 15-976-47-73", "PL")).toEqual(["15-976-47-73"]);
  });

  test("where the national format writes the trunk 0, digits without it are no national number", () => {
    expect(phones("Ruf an: 30 12345678", "DE")).toEqual([]);
    expect(phones("ring 20 7946 0958", "GB")).toEqual([]);
    expect(phones("celular (11) 96123-4567", "DE")).toEqual([]);
  });
});

describe("look-alikes are not", () => {
  test.each([
    ["PL", "Order 512 345 678 shipped"],
    ["PL", "order #15976477"],
    ["PL", "on 2024-01-15 10:30"],
    ["DE", "am 15.01.2024 10:30"],
    ["DE", "version 10.0.19041.1234"],
    ["DE", "server 192.168.100.200"],
    ["DE", "ISBN 978-3-16-148410-0"],
    ["DE", "tracking 7489 4432 1234"],
    ["US", "UPS 1Z999AA10123456784"],
    ["US", "created at 1700000000"],
    ["US", "created at 1700000000123"],
    ["ES", "price 912 345 678 €"],
    ["PL", "population 38 386 000"],
    ["PL", "invoice 2023-11-27-0042"],
    ["US", "v1.2.3-456"],
    ["US", "id 5123456789"],
    ["ES", "12 345 678 rows"],
    ["US", "the years 2019 2020 2021"],
    ["PL", "order 123456789"],
    ["US", "commit 4532015112"],
    // Five digits with no phone label, or not valid in the region, are a zip code, a count, an amount.
    ["SH", "zip 51234"],
    ["SH", "we shipped 51234 units"],
    ["US", "phone: 12345"],
    ["DE", "Tel: 12345"],
  ])("%s: %p", (region, text) => {
    expect(personal(text, region)).toEqual([]);
  });
});

test("a region is an ISO 3166 code with a numbering plan", () => {
  for (const ok of ["US", "PL", "NL", "AU"]) expect(isPhoneRegion(ok)).toBe(true);
  for (const bad of ["us", "XX", "USA", ""]) expect(isPhoneRegion(bad)).toBe(false);
});
