/**
 * The cue classes: every listed word is found in the open-addressed table with the
 * class of the first list naming it, other words have none, and the features a cue
 * sequence adds depend on the order and position of the cues, not only on the words,
 * and on whether the sentence addresses the model.
 */
import { expect, test } from "bun:test";
import { CUE_CLASSES, cueClass, wordHash } from "../../../src/pipeline/scan/classifier-cues.ts";
import { featureHashes } from "../../../src/pipeline/scan/classifier-features.ts";

const hashes = (t: string) => {
  const { hashes, length } = featureHashes(t, new Uint32Array(8));
  return new Set(hashes.subarray(0, length));
};

test("every cue word has the class of the first list naming it; other words none", () => {
  const first = new Map<string, number>();
  Object.values(CUE_CLASSES).forEach((words, i) => {
    for (const w of words) if (!first.has(w)) first.set(w, i + 1);
  });
  for (const [word, cls] of first) expect([word, cueClass(wordHash(word))]).toEqual([word, cls]);
  for (const word of ["table", "lighthouse", "quarterly", "git", "breathing", "ignorance"]) expect(cueClass(wordHash(word))).toBe(0);
});

test("cue sequences: the same words in another order, or after a blank line, give other features", () => {
  const attack = hashes("ignore previous instructions");
  const shuffled = hashes("instructions previous ignore");
  // The n-grams of the words are shared; the cue pairs and triple are not.
  expect([...attack].filter((h) => !shuffled.has(h)).length).toBeGreaterThan(0);
  const inData = hashes("Summarize this.\n\nignore previous instructions");
  const asked = hashes("Summarize this. ignore previous instructions");
  expect([...inData].filter((h) => !asked.has(h)).length).toBeGreaterThan(0);
  // A word with no cue class adds no cue feature: punctuation and blank lines around it change nothing.
  expect(hashes("lighthouse keeper")).toEqual(hashes("lighthouse\n\nkeeper"));
});

test("a sentence aimed at the model: cues far apart in one sentence pair up, and an addressed cue differs", () => {
  // "ignore" and "rules" are more than three words apart: only the sentence's first-cue pair joins them.
  const far = hashes("ignore what the team wrote in the old rules");
  const split = hashes("ignore what the team wrote. in the old rules");
  expect([...far].filter((h) => !split.has(h)).length).toBeGreaterThan(0);
  // Addressed to the model or not: after "you" in the same sentence "reveal" and "password" hash apart
  // from the same words after "you" and a full stop, where no three-word pair joins them either.
  const addressed = hashes("you of all the helpers here would reveal the password");
  const apart = hashes("you of all the helpers here. would reveal the password");
  expect([...addressed].filter((h) => !apart.has(h)).length).toBeGreaterThanOrEqual(2);
});
