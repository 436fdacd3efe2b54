/**
 * A credential in a Markdown table: a header cell names it (`| host | user | password |`, `| service | API token |`),
 * and a row's cell in that column holds it, below the separator line. The cell is judged as the named-value readings
 * judge a value: under a password's word a chosen or generated one, under a key's or token's a generated one.
 */
import { LATIN, NOT_A_CREDENTIAL, NOT_THE_VALUE, PASSWORD_SET, STORED_FORM, spaced } from "./credential-generic.ts";
import { mixedValue } from "./credential-notes.ts";
import type { GatedSecretRule } from "./detector.ts";
import { machineRandom } from "./randomness.ts";
import { literalAlternation } from "./regex-literals.ts";

const WORDS = [...LATIN].sort((a, b) => b.length - a.length);
/** How many rows below the separator are read. */
const ROWS = 12;

/** A row's cells, the pipes at its ends dropped (`| a | b |` and `a | b` both give `a`, `b`). */
const cells = (line: string) =>
  line
    .trim()
    .replace(/^\|/, "")
    .replace(/\|$/, "")
    .split("|")
    .map((c) => c.trim());

/** Whether a column named `name` holds a credential in one of `rows`, at `column`. */
function columnHolds(name: string, rows: readonly string[][], column: number): boolean {
  const word = WORDS.find((w) => name.includes(w));
  if (word === undefined || NOT_THE_VALUE.test(name) || NOT_A_CREDENTIAL.test(spaced(name)) || STORED_FORM.test(name)) return false;
  const password = PASSWORD_SET.has(word);
  for (const row of rows) {
    const cell = (row[column] ?? "").replace(/^`(.*)`$/, "$1");
    if (/\s/.test(cell)) continue;
    if (machineRandom(cell) || (password && mixedValue(cell))) return true;
  }
  return false;
}

/** A table (its header, its separator, its rows) in which a column named after a credential holds one. */
function tableHolds(table: string): boolean {
  const lines = table.split("\n");
  const header = cells(lines[0] as string).map((c) => c.toLowerCase());
  const rows = lines.slice(2, 2 + ROWS).map(cells);
  return header.some((name, column) => columnHolds(name, rows, column));
}

const ESCAPED = literalAlternation(WORDS);

/**
 * Searched only in a text with a table's separator (`|---`, `| :--`), which prose does not write: at the credential
 * words' starts it would have made every `token` of prose try one more expression.
 */
export const CREDENTIAL_TABLE_RULE: GatedSecretRule = {
  kind: "credential_in_table",
  // A header line holding a credential's word and a pipe, the separator line (dashes, colons, pipes), then the rows that
  // open with a pipe.
  regex: new RegExp(
    `^[^\\n|]{0,200}\\|[^\\n]{0,400}\\b(?:${ESCAPED})[^\\n]{0,400}\\n[ \\t]{0,3}\\|?[ \\t]{0,3}:?-[-:| \\t]{0,255}(?:\\n[ \\t]{0,3}\\|[^\\n]{0,512}){1,${ROWS}}`,
    "gim",
  ),
  keywords: ["|-", "| -", "|:-", "| :-"],
  validate: tableHolds,
};
