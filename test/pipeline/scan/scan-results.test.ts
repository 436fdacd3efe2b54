/**
 * The scanner's results on every labeled row (scanner/data/*.jsonl and the corpus
 * fixture) are those of its plain reference paths and those recorded before its
 * machinery was made faster: the triggered scan equals the scan at every position, the
 * classifier's logit equals the plain extractor's and scorer's, and the full results
 * (findings, scores, confidence, logit, the request's verdict and redactions) hash to
 * the recorded digests.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { INJECTION_MODEL, windowLogit } from "../../../src/pipeline/scan/classifier.ts";
import { scanText } from "../../../src/pipeline/scan/engine.ts";
import { referenceLogit } from "./classifier-reference.ts";
import { scanExhaustively } from "./exhaustive-scan.ts";
import { DIGEST_FILE, digests, labeledRows } from "./scan-results.ts";

const rows = labeledRows();
const texts = Object.values(rows).flat();

describe("every labeled row", () => {
  test("scans as the exhaustive scan does (patterns tried at every position)", () => {
    for (const text of texts) {
      for (const injection of [true, false]) {
        expect([text, scanText(text, { injection })]).toEqual([text, scanExhaustively(text, { injection })]);
      }
    }
  });

  test("gets the plain classifier's logit, bit for bit", () => {
    for (const text of texts) expect([text, windowLogit(INJECTION_MODEL, text)]).toEqual([text, referenceLogit(INJECTION_MODEL, text)]);
  });

  test("gives the recorded results (when rules, weights or rows change on purpose: bun test/pipeline/scan/scan-results.ts --write)", () => {
    expect(digests(rows)).toEqual(JSON.parse(readFileSync(DIGEST_FILE, "utf8")));
  });
});
