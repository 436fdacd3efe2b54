/**
 * The probe table (rewritings.ts): how the scanner judges known attacks and credentials
 * rewritten so that a model, or a reader, still gets them. Each row is the three attacks'
 * verdicts by the rules alone, then by the whole scanner (B blocked, f flagged, - passed),
 * and for credentials whether each of the three keys is found. A row that changes is a
 * change of what the scanner reads: the table in docs/scanner.md ("Rewritten attacks"), which
 * also has each row as it was before the normalized reading, goes with it. A spaced-out chat
 * template (`< | i m _ s t a r t | >`) is no template token to a tokenizer, and the rules alone
 * leave it. Precomposed accented letters (`ìgnörè`) are read again only when two words read
 * without their accents as words the scanner acts on (rewritten-words.ts).
 */
import { describe, expect, test } from "bun:test";
import { ATTACK_FORMS, CREDENTIAL_FORMS, probeTable, type Verdict } from "./rewritings.ts";

const mark = (v: Verdict) => (v === "blocked" ? "B" : v === "flagged" ? "f" : "-");

const ATTACK_ROWS: Record<string, string> = {
  "as written": "B B B | B B B",
  "full-width (U+FF01-FF5E, ideographic spaces)": "B B B | B B B",
  "full-width letters, ASCII spaces": "B B B | B B B",
  "mathematical bold (U+1D400)": "B B B | B B B",
  "mathematical italic (U+1D434)": "B B B | B B B",
  "circled letters (U+24B6)": "B B B | B B B",
  "ligatures (ﬁ ﬂ ﬆ)": "B B B | B B B",
  "Cyrillic look-alikes in Latin words": "B B B | B B B",
  "Greek look-alikes in Latin words": "B B B | B B B",
  "HTML decimal references": "B B B | B B B",
  "HTML hex references": "B B B | B B B",
  "letters spaced, words by three spaces": "B - B | B B B",
  "letters joined by dots": "B - B | B B B",
  "letters joined by hyphens": "B - B | B B B",
  "letters joined by asterisks": "B - B | B B B",
  leetspeak: "B B B | B B B",
  "no-break spaces between words": "B B B | B B B",
  "em spaces between words": "B B B | B B B",
  "soft hyphen (U+00AD) in words": "B B B | B B B",
  "word joiner (U+2060) in words": "B B B | B B B",
  "invisible times (U+2062) in words": "B B B | B B B",
  "Mongolian vowel separator (U+180E) in words": "B B B | B B B",
  "byte order mark (U+FEFF) in words": "B B B | B B B",
  "zero-width space (U+200B) in words": "B B B | B B B",
  "combining accents on letters": "B B B | B B B",
  "precomposed accented letters": "B B B | B B B",
};

const CREDENTIAL_ROWS: Record<string, string> = {
  "as written": "B B B",
  "full-width": "B B B",
  "mathematical bold letters": "B B B",
  "zero-width space after 6 characters": "B B B",
  "soft hyphen after 6 characters": "B B B",
  "word joiner after 6 characters": "B B B",
  "Cyrillic look-alikes": "B B B",
  "HTML references for its first 3 characters": "B B B",
};

describe("rewritten attacks and credentials (the probe table)", () => {
  const table = probeTable();

  test("every form is in the table", () => {
    expect(ATTACK_FORMS.map(([name]) => name)).toEqual(Object.keys(ATTACK_ROWS));
    expect(CREDENTIAL_FORMS.map(([name]) => name)).toEqual(Object.keys(CREDENTIAL_ROWS));
  });

  test("attacks: the rules alone | the whole scanner", () => {
    const got = Object.fromEntries(
      table.attacks.map(([name, rules, whole]) => [name, `${rules.map(mark).join(" ")} | ${whole.map(mark).join(" ")}`]),
    );
    expect(got).toEqual(ATTACK_ROWS);
  });

  test("credentials: found or not", () => {
    const got = Object.fromEntries(table.credentials.map(([name, found]) => [name, found.map((x) => (x ? "B" : "-")).join(" ")]));
    expect(got).toEqual(CREDENTIAL_ROWS);
  });
});
