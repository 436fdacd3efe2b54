import { expect, test } from "bun:test";
import { placeholders } from "../../../src/store/postgres/flush-statements.ts";

/** The list written out directly, row by row: what the built-once lists must equal. */
function direct(rows: number, width: number, casts: string[] = []): string {
  const out: string[] = [];
  let n = 0;
  for (let r = 0; r < rows; r++) {
    const cells: string[] = [];
    for (let c = 0; c < width; c++) cells.push(`$${++n}${casts[c] ? `::${casts[c]}` : ""}`);
    out.push(`(${cells.join(", ")})`);
  }
  return out.join(", ");
}

test("placeholder lists are the same text whatever order their sizes are asked in", () => {
  expect(placeholders(2, 2)).toBe("($1, $2), ($3, $4)");
  expect(placeholders(1, 4, ["text", "bigint"])).toBe("($1::text, $2::bigint, $3, $4)");
  for (const rows of [1, 5, 1000, 3, 1001, 0, 4000, 17])
    for (const [width, casts] of [
      [14, []],
      [4, ["text", "bigint", "bigint", "bigint"]],
      [9, []],
    ] as [number, string[]][])
      expect(placeholders(rows, width, casts)).toBe(direct(rows, width, casts));
});
