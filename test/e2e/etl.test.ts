/** The context optimizer over HTTP: a document with known duplicates, the metrics after, and no document text on disk. */
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { stackPerFile } from "../support/stack.ts";

const stack = stackPerFile();

const MARKER = "DOCUMENT-MARKER-7781";
const para = (n: number) => `Section ${n}: ${MARKER} the contract renews every year unless either party objects in writing.`;

const post = (body: unknown, key = stack.org.apiKey) =>
  fetch(`${stack.gw.url}/api/user/etl/optimize`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

test("before any document the metrics are zeros, and topTransformation is still a string", async () => {
  const m = (await (
    await fetch(`${stack.gw.url}/api/user/etl-metrics`, { headers: { authorization: `Bearer ${stack.org.apiKey}` } })
  ).json()) as any;
  expect(m).toMatchObject({ totalDocuments: 0, totalTokensSaved: 0, topTransformation: "", recentDocuments: [] });
});

test("a document with known duplicates: savings reported, then summed by etl-metrics", async () => {
  const doc = [para(1), para(2), para(1), para(2), para(3)].join("\n\n");
  const res = await post({ document: doc });
  expect(res.status).toBe(200);
  const r = (await res.json()) as any;
  expect(r.optimizedText).toBe([para(1), para(2), para(3)].join("\n\n"));
  expect(r.transformationsApplied).toEqual(["deduplication"]);
  expect(r.tokensSaved).toBe(r.originalTokens - r.optimizedTokens);
  expect(r.savingsPercent).toBeGreaterThan(30);
  expect(r.costSavings).toBeGreaterThan(0);

  const chunked = (await (await post({ document: doc, maxChunkTokens: 40 })).json()) as any;
  expect(chunked.transformationsApplied).toContain("chunking");
  expect(chunked.chunks.length).toBeGreaterThan(1);

  const m = (await (
    await fetch(`${stack.gw.url}/api/user/etl-metrics`, { headers: { authorization: `Bearer ${stack.org.apiKey}` } })
  ).json()) as any;
  expect(m.totalDocuments).toBe(2);
  expect(m.totalOriginalTokens).toBe(r.originalTokens + chunked.originalTokens);
  expect(m.totalTokensSaved).toBe(m.totalOriginalTokens - m.totalOptimizedTokens);
  expect(m.transformations).toMatchObject({ deduplication: 2, chunking: 1, normalization: 0, compression: 0 });
  expect(m.topTransformation).toBe("deduplication");
  expect(m.recentDocuments.map((d: { documentId: string }) => d.documentId)).toEqual([chunked.documentId, r.documentId]);
  // Counts and ids only.
  expect(JSON.stringify(m)).not.toContain(MARKER);
});

test("bad bodies are 400 and record nothing; no credential is 401", async () => {
  const before = (
    (await (
      await fetch(`${stack.gw.url}/api/user/etl-metrics`, { headers: { authorization: `Bearer ${stack.org.apiKey}` } })
    ).json()) as any
  ).totalDocuments;
  for (const body of [{}, { document: "" }, { document: 5 }, { document: "x", maxChunkTokens: 1 }, { document: "x", extra: true }]) {
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.code).toBe("invalid_request");
  }
  expect((await post({ document: "x", model: "no-such-model" })).status).toBe(404);
  const after = (
    (await (
      await fetch(`${stack.gw.url}/api/user/etl-metrics`, { headers: { authorization: `Bearer ${stack.org.apiKey}` } })
    ).json()) as any
  ).totalDocuments;
  expect(after).toBe(before);
  expect((await fetch(`${stack.gw.url}/api/user/etl-metrics`)).status).toBe(401);
});

test("nothing of a document is stored in the data folder", async () => {
  // Stop first so the WAL is checkpointed and every byte written is in a file.
  await stack.gw.stop();
  const files = readdirSync(stack.gw.dataDir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile());
  expect(files.length).toBeGreaterThan(0);
  for (const f of files)
    expect([f.name, readFileSync(join(f.parentPath, f.name)).toString("latin1").includes(MARKER)]).toEqual([f.name, false]);
  expect(stack.gw.lines.join("\n")).not.toContain(MARKER);
});
