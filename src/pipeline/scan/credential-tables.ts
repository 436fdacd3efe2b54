/**
 * A credential in a Markdown table: a header cell names it (`| host | user | password |`, `| service | API token |`),
 * and a row's cell in that column holds it, below the separator line. The cell is judged as the named-value readings
 * judge a value: under a password's word a chosen or generated one, under a key's or token's a generated one.
 */
import { LATIN, NOT_A_CREDENTIAL, NOT_THE_VALUE, PASSWORD_SET, spaced, STORED_FORM } from "./credential-generic.ts";
import { mixedValue } from "./credential-notes.ts";
import type { Detector } from "./detector.ts";
import { machineRandom } from "./randomness.ts";

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

function tableHolds(m: string, text: string, index: number): boolean {
  const lineStart = text.lastIndexOf("\n", index - 1) + 1;
  const lines = text.slice(lineStart, index + m.length).split("\n");
  const header = cells(lines[0] as string);
  // The header cell the word opens in: as many pipes stand before it as before the word.
  const before = text.slice(lineStart, index);
  const column = cells(`${before}x`).length - 1;
  const name = (header[column] ?? "").toLowerCase();
  const word = WORDS.find((w) => name.includes(w)) ?? "";
  if (word === "" || NOT_THE_VALUE.test(name) || NOT_A_CREDENTIAL.test(spaced(name)) || STORED_FORM.test(name)) return false;
  const password = PASSWORD_SET.has(word);
  for (const row of lines.slice(2, 2 + ROWS)) {
    const cell = (cells(row)[column] ?? "").replace(/^`(.*)`$/, "$1");
    if (/\s/.test(cell)) continue;
    if (machineRandom(cell) || (password && mixedValue(cell))) return true;
  }
  return false;
}

const ESCAPED = WORDS.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|");

export const CREDENTIAL_TABLE_DETECTOR: Detector = {
  kind: "credential_in_table",
  category: "secret",
  ignoreCase: true,
  // The word, the rest of its header cell and line, the separator line (`|---|:--:|`: dashes, colons, pipes), then the
  // rows that open with a pipe.
  pattern: `\\b(?:${ESCAPED})[^|\\n]{0,32}\\|[^\\n]{0,256}\\n[ \\t]{0,3}\\|?[ \\t]{0,3}:?-[-:| \\t]{0,255}(?:\\n[ \\t]{0,3}\\|[^\\n]{0,512}){1,${ROWS}}`,
  validate: tableHolds,
  start: { at: "word", literals: WORDS.filter((w) => w.length >= 3) },
  // Rejected, the scan resumes after the header's word: the rows may hold other credentials.
  valueAfter: /^[^|\n]*/,
};
