/**
 * A held-out personal-data evaluation set, generated: e-mails, cards, IBANs and
 * phone numbers from @faker-js/faker locales no rule was written or tuned on (the
 * training pool used en_US, en_GB, de and fr), US SSNs, libphonenumber-js's example
 * mobile number of every region it supports written the national way, and
 * look-alikes (order numbers, dates, versions, tracking codes) that must stay
 * unflagged. Its carrier sentences are not those of detector-carriers.ts. Seeded, so
 * every run scans the same rows; generated after the rules were frozen for it.
 */
import * as faker from "@faker-js/faker";
import { type CountryCode, getCountries, getExampleNumber, parsePhoneNumber } from "libphonenumber-js/max";
import examples from "libphonenumber-js/mobile/examples";

export interface PiiRow {
  source: string;
  category: "pii" | "benign";
  /** `email`, `card`, `iban`, `ssn`, `phone`, or `<what>-lookalike`. */
  kind: string;
  text: string;
  /** The region an organization sending this row would set. */
  region: string;
  /** Fixed before the first scan: locales and regions alternately `tune` (misses may be read) and `held-out` (never read). */
  half: "tune" | "held-out";
}

/** Locales not in the training pools, and the region an organization there would set. */
const LOCALES: Record<string, CountryCode> = {
  PL: "PL",
  NL: "NL",
  IT: "IT",
  ES: "ES",
  EN_CA: "CA",
  EN_AU: "AU",
  PT_BR: "BR",
  PT_PT: "PT",
  SV: "SE",
  DA: "DK",
  NB_NO: "NO",
  FI: "FI",
  CS_CZ: "CZ",
  DE_AT: "AT",
  DE_CH: "CH",
  FR_BE: "BE",
  EN_IE: "IE",
  EN_IN: "IN",
  TR: "TR",
  RO: "RO",
  HU: "HU",
  SK: "SK",
  HR: "HR",
  JA: "JP",
  KO: "KR",
  EN_ZA: "ZA",
  ES_MX: "MX",
  UK: "UA",
};

const SOURCE = "generated held-out (faker locales, libphonenumber examples)";

type Faker = typeof faker.faker;
const fakerFor = (locale: string) => (faker as unknown as Record<string, Faker>)[`faker${locale}`] as Faker;

/** Where personal data turns up in prompts: chat, a signature, a CSV line, JSON, a support ticket, a form dump. */
function carrier(f: Faker, label: string, value: string): string {
  const name = f.person.fullName();
  return f.helpers.arrayElement([
    `Can you fix the formatting of this contact card? ${name}, ${label}: ${value}`,
    `Kind regards,\n${name}\n${f.company.name()}\n${label}: ${value}`,
    `id;name;${label};city\n${f.number.int({ min: 100, max: 999 })};${name};${value};${f.location.city()}`,
    `{"customer": {"name": "${name}", "${label}": "${value}", "tier": "gold"}}`,
    `Ticket from ${name}: I changed my ${label} to ${value} last week but the invoice still shows the old one.`,
    `Summarise this form submission.\nName: ${name}\n${label[0]?.toUpperCase()}${label.slice(1)}: ${value}\nConsent: yes`,
  ]);
}

/** A US social security number that the SSA could issue: no 000, 666 or 9xx area, no 00 group, no 0000 serial. */
function ssn(f: Faker): string {
  let area = f.number.int({ min: 1, max: 899 });
  if (area === 666) area = 665;
  const group = f.number.int({ min: 1, max: 99 });
  const serial = f.number.int({ min: 1, max: 9999 });
  return `${String(area).padStart(3, "0")}-${String(group).padStart(2, "0")}-${String(serial).padStart(4, "0")}`;
}

/** Numbers that look like phone numbers, cards or dates to a loose reader, labelled as people write them. */
function lookalikes(f: Faker, region: string, half: PiiRow["half"]): PiiRow[] {
  const row = (kind: string, text: string): PiiRow => ({
    source: SOURCE,
    category: "benign",
    kind: `${kind}-lookalike`,
    text,
    region,
    half,
  });
  const d = f.date.past({ years: 3 });
  const dd = String(d.getDate()).padStart(2, "0");
  const mm = String(d.getMonth() + 1).padStart(2, "0");
  return [
    row("order", `Where is my order #${f.string.numeric(9)}? It was due on ${dd}.${mm}.${d.getFullYear()}.`),
    row("order", `Refund for invoice no. ${f.string.numeric(4)}-${f.string.numeric(6)} please, amount ${f.finance.amount()} EUR.`),
    row("date", `The meeting moved from ${dd}/${mm}/${d.getFullYear()} to ${d.getFullYear()}-${mm}-${dd} 14:30.`),
    row("version", `After upgrading to ${f.system.semver()} (build ${f.string.numeric(8)}) the app crashes on start.`),
    row(
      "tracking",
      `Tracking number ${f.string.numeric(4)} ${f.string.numeric(4)} ${f.string.numeric(4)} ${f.string.numeric(4)} ${f.string.numeric(4)} ${f.string.numeric(2)}, still not delivered.`,
    ),
    row("tracking", `Parcel 1Z${f.string.alphanumeric({ length: 16, casing: "upper" })} left the depot.`),
    row(
      "count",
      `We processed ${f.number.int({ min: 1_000_000, max: 99_999_999 }).toLocaleString("en-US")} records in ${f.number.int({ min: 2, max: 59 })} minutes.`,
    ),
  ];
}

export function piiHeldOutRows(seed = 33): PiiRow[] {
  const rows: PiiRow[] = [];
  const halfOf = (i: number): PiiRow["half"] => (i % 2 === 0 ? "tune" : "held-out");
  for (const [i, [locale, region]] of Object.entries(LOCALES).entries()) {
    const f = fakerFor(locale);
    f.seed(seed);
    const half = halfOf(i);
    const add = (kind: string, label: string, value: string) =>
      rows.push({ source: SOURCE, category: "pii", kind, text: carrier(f, label, value), region, half });
    for (let i = 0; i < 3; i++) {
      add("email", "email", f.internet.email());
      add("card", "card", f.finance.creditCardNumber());
      add("iban", "IBAN", f.finance.iban({ formatted: i % 2 === 0 }));
      // faker's national phone formats, kept when the library calls them valid in the region (faker draws digits at random).
      const phone = f.phone.number({ style: "national" });
      if (parsePhoneNumber(phone, region).isValid()) add("phone", "phone", phone);
    }
    add("ssn", "SSN", ssn(f));
    rows.push(...lookalikes(f, region, half));
  }
  // Every region libphonenumber-js supports: its example mobile number, as that country writes it.
  const f = fakerFor("EN");
  f.seed(seed);
  for (const [i, region] of getCountries().entries()) {
    const example = getExampleNumber(region, examples);
    if (!example) continue;
    const text = carrier(f, "phone", example.formatNational());
    rows.push({ source: "libphonenumber-js examples (national format)", category: "pii", kind: "phone", text, region, half: halfOf(i) });
  }
  return rows;
}
