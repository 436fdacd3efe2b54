/**
 * The classifier's first feature extractor and scorer, kept as they were before they
 * were made faster (branch-free scoring, 16-bit block numbers, a table for ASCII case
 * folding, code units copied into a typed array), plus the cue features written the
 * plain way (words as strings, classes from a map, marks read from the characters;
 * the sentence's first cue and whether the sentence addresses the model as plain state):
 * the tests hold the fast ones to give exactly these hashes and logits, so the trained
 * weights and held-out figures stay valid.
 */
import { CUE_CLASSES } from "../../../src/pipeline/scan/classifier-cues.ts";
import { CUE_GAP, HASH_SIZE, STRIDE } from "../../../src/pipeline/scan/classifier-features.ts";

/** The classes that say whom a sentence addresses (the model, the system). */
const ADDRESS = new Set(["you", "system"].map((name) => Object.keys(CUE_CLASSES).indexOf(name) + 1));

/** Each cue word's class, the first list naming a word winning. */
const CLASS_OF = new Map<string, number>();
Object.values(CUE_CLASSES).forEach((words, i) => {
  for (const w of words) if (!CLASS_OF.has(w)) CLASS_OF.set(w, i + 1);
});
import type { LinearModel } from "../../../src/pipeline/scan/classifier.ts";

const SHIFT = 32 - 17;

function fold(c: number): number {
  if (c < 128) {
    if (c >= 97 && c <= 122) return c;
    if (c >= 65 && c <= 90) return c + 32;
    if (c >= 48 && c <= 57) return c;
    return 0;
  }
  if (c >= 0xc0 && c <= 0xde && c !== 0xd7) return c + 32;
  if (c >= 0x410 && c <= 0x42f) return c + 32;
  if (c >= 0x391 && c <= 0x3a9) return c + 32;
  if (c < 0xc0 || (c >= 0x2000 && c <= 0x2bff) || (c >= 0xd800 && c <= 0xdfff) || c === 0xfeff) return 0;
  return c;
}

export function referenceHashes(text: string): number[] {
  const buf: number[] = [];
  let c1 = 32;
  let c2 = 32;
  let c3 = 32;
  let c4 = 32;
  let word = 0;
  let prevWord = 0;
  let inWord = false;
  let letters = "";
  let cue1 = 0;
  let cue2 = 0;
  let gap = 0;
  let sentenceStart = 1;
  let newlines = 0;
  let data = 0;
  let sentenceFirst = 0;
  let addressed = false;
  for (let i = 0; i <= text.length; i++) {
    let c = i < text.length ? fold(text.charCodeAt(i)) : 0;
    const ch = c === 0 && i < text.length ? (text[i] as string) : "";
    // What a separator marks, once the word it ends is hashed.
    const applyMark = () => {
      if (ch === "") return;
      if (".!?;:\n".includes(ch)) {
        sentenceFirst = 0;
        addressed = false;
      }
      if (".!?;:".includes(ch)) sentenceStart = 1;
      else if (ch === "\n") {
        sentenceStart = 1;
        newlines++;
        if (newlines >= 2) data = 1;
      } else if ("<{`[".includes(ch)) data = 1;
    };
    if (c === 0) {
      if (!inWord) {
        applyMark();
        continue;
      }
      c = 32;
    }
    const tri = (c2 * 961 + c1 * 31 + c) | 0;
    buf.push(Math.imul(tri ^ 0x27d4eb2f, 0x9e3779b1) >>> SHIFT);
    buf.push(Math.imul((c4 * 923521 + c3 * 29791 + tri) ^ 0x165667b1, 0x85ebca77) >>> SHIFT);
    if (c === 32) {
      const unigram = Math.imul(word ^ 0x5bd1e995, 0xcc9e2d51);
      buf.push(unigram >>> SHIFT);
      buf.push(Math.imul(Math.imul(prevWord, 0x1b873593) ^ unigram, 0xe6546b64) >>> SHIFT);
      const cue = CLASS_OF.get(letters) ?? 0;
      if (cue !== 0) {
        buf.push(Math.imul((cue + sentenceStart * 32 + data * 64) ^ 0x3c6ef372, 0x2545f491) >>> SHIFT);
        if (cue1 !== 0) {
          buf.push(Math.imul((cue1 * 32 + cue) ^ 0x6a09e667, 0x9e3779b9) >>> SHIFT);
          buf.push(Math.imul((cue1 * 32 + cue + data * 1024) ^ 0x510e527f, 0x68e31da4) >>> SHIFT);
          if (cue2 !== 0) buf.push(Math.imul((cue2 * 1024 + cue1 * 32 + cue) ^ 0x1f83d9ab, 0x5be0cd19) >>> SHIFT);
        }
        if (sentenceFirst !== 0) buf.push(Math.imul((sentenceFirst * 32 + cue + data * 1024) ^ 0x2b992ddf, 0x7feb352d) >>> SHIFT);
        else sentenceFirst = cue;
        buf.push(Math.imul((cue + (addressed ? 32 : 0) + data * 64) ^ 0x4cf5ad43, 0x846ca68b) >>> SHIFT);
        if (ADDRESS.has(cue)) addressed = true;
        cue2 = cue1;
        cue1 = cue;
        gap = 0;
      } else {
        gap++;
        if (gap > CUE_GAP) {
          cue1 = 0;
          cue2 = 0;
        }
      }
      sentenceStart = 0;
      newlines = 0;
      applyMark();
      letters = "";
      prevWord = word;
      word = 0;
      inWord = false;
    } else {
      letters += String.fromCharCode(c);
      word = Math.imul(word ^ c, 0x01000193);
      inWord = true;
    }
    c4 = c3;
    c3 = c2;
    c2 = c1;
    c1 = c;
  }
  return buf;
}

const lastBlock = new Uint32Array(HASH_SIZE);
let blockStamp = 0;

export function referenceLogit(model: LinearModel, text: string): number {
  const hashes = referenceHashes(text);
  const length = hashes.length;
  const w = model.weights;
  if (length === 0) return model.bias;
  if (blockStamp > 0xffffffff - (length / STRIDE + 2)) {
    lastBlock.fill(0);
    blockStamp = 0;
  }
  let best = Number.NEGATIVE_INFINITY;
  let previousSum = 0;
  let previousCount = 0;
  for (let start = 0; start < length; start += STRIDE) {
    const end = Math.min(length, start + STRIDE);
    const block = ++blockStamp;
    let sum = 0;
    let count = 0;
    let newSum = 0;
    let newCount = 0;
    for (let k = start; k < end; k++) {
      const h = hashes[k] as number;
      const last = lastBlock[h] as number;
      if (last === block) continue;
      lastBlock[h] = block;
      const weight = w[h] as number;
      sum += weight;
      count++;
      if (last !== block - 1 || start === 0) {
        newSum += weight;
        newCount++;
      }
    }
    if (start > 0 || end === length) {
      const total = start > 0 ? previousSum + newSum : sum;
      const n = start > 0 ? previousCount + newCount : count;
      const logit = model.bias + (model.scale * total) / Math.sqrt(n);
      if (logit > best) best = logit;
    }
    previousSum = sum;
    previousCount = count;
  }
  return best;
}
