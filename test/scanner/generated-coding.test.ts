/**
 * The generated programming tasks (scanner/generated-coding.ts): the same every run, benign
 * rows of the project's own source, trained on, in every frame (docstring, comment, plain
 * task, interview question), and none copied from the public pool whose docstrings they
 * resemble (no run of eight words shared with openai/human-eval's rows).
 */
import { expect, test } from "bun:test";
import { CODING_SOURCE, generatedCodingRows } from "../../scanner/generated-coding.ts";
import { loadTrainingRows } from "../../scanner/train.ts";

const rows = generatedCodingRows();
const training = loadTrainingRows();

test("the same rows every run from the same seed, others from another, ids and texts unique", () => {
  expect(generatedCodingRows()).toEqual(rows);
  expect(generatedCodingRows(54).map((r) => r.text)).not.toEqual(rows.map((r) => r.text));
  expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
  expect(new Set(rows.map((r) => r.text)).size).toBe(rows.length);
});

test("about 180 benign rows of the project's own source, all trained on", () => {
  expect(rows.length).toBeGreaterThanOrEqual(150);
  expect(rows.length).toBeLessThanOrEqual(180);
  expect(new Set(rows.map((r) => `${r.source} ${r.category}`))).toEqual(new Set([`${CODING_SOURCE} benign`]));
  const trained = new Set(training.map((r) => r.id));
  expect(rows.every((r) => trained.has(r.id))).toBe(true);
});

test("every frame is there: docstrings, code comments, plain tasks, interview questions, second person", () => {
  const has = (re: RegExp) => rows.filter((r) => re.test(r.text)).length;
  expect({
    docstring: has(/"""/) >= 20,
    comment: has(/\n\s*(?:\/\/|#|\*) /) >= 20,
    plain: has(/^(?:Problem: |You|Given|Your|In this|We|Task)/) >= 20,
    interview: has(/coding interview/) >= 10,
    secondPerson: has(/\byou(?:'ll| are| have| need| must| should| may)\b/i) >= 100,
  }).toEqual({ docstring: true, comment: true, plain: true, interview: true, secondPerson: true });
});

test("no row shares a run of eight words with a human-eval row", () => {
  const words = (text: string) => text.toLowerCase().match(/[a-z0-9']+/g) ?? [];
  const runs = new Set<string>();
  for (const r of training.filter((r) => r.source === "openai/human-eval")) {
    const w = words(r.text);
    for (let i = 0; i + 8 <= w.length; i++) runs.add(w.slice(i, i + 8).join(" "));
  }
  const shared = rows.filter((r) => {
    const w = words(r.text);
    for (let i = 0; i + 8 <= w.length; i++) if (runs.has(w.slice(i, i + 8).join(" "))) return true;
    return false;
  });
  expect(shared.map((r) => r.text)).toEqual([]);
});
