/**
 * Imports flow one way: each layer of src/ imports only the layers below it (and
 * files of its own folder), and no file reaches itself through its imports. The
 * layer order is docs/architecture.md's; a new top-level folder must be placed in it
 * before it can be imported.
 */
import { expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const SRC = resolve(import.meta.dir, "../../src");

/** Top to bottom; folders on one line are one layer and must not import each other. */
const LAYERS: string[][] = [
  ["cli"],
  ["runtime"],
  ["http"],
  ["ops"],
  ["mcp"],
  ["pipeline"],
  ["services"],
  ["routing"],
  ["state"],
  ["policy"],
  ["mock-provider"],
  ["simulator"],
  ["translate"],
  ["providers"],
  ["store"],
  ["schemas", "config"],
  ["lib"],
  ["domain", "version"],
];

const rank = new Map<string, number>();
LAYERS.forEach((names, i) => {
  for (const n of names) rank.set(n, i);
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith(".ts") ? [path] : [];
  });
}

/** `src/http/app.ts` -> `http`; `src/runtime.ts` -> `runtime`. */
function layerOf(file: string): string {
  return relative(SRC, file).split("/")[0]!.replace(/\.ts$/, "");
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+"(\.[^"]+)"/g;

function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(IMPORT)].map((m) => resolve(dirname(file), m[1]!));
}

const files = sourceFiles(SRC);
const graph = new Map(files.map((f) => [f, importsOf(f)]));

test("every folder of src/ has a place in the layer order", () => {
  const unplaced = [...new Set(files.map(layerOf))].filter((l) => !rank.has(l));
  expect(unplaced).toEqual([]);
});

test("no import runs from a lower layer to a higher one, or across one layer", () => {
  const backEdges: string[] = [];
  for (const [file, targets] of graph) {
    const from = layerOf(file);
    for (const target of targets) {
      const to = layerOf(target);
      if (from === to) continue;
      if (rank.get(to)! <= rank.get(from)!) backEdges.push(`${relative(SRC, file)} -> ${relative(SRC, target)}`);
    }
  }
  expect(backEdges).toEqual([]);
});

test("no import cycle", () => {
  const cycles: string[] = [];
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      const s = state.get(next);
      if (s === "open")
        cycles.push(
          path
            .slice(path.indexOf(next))
            .concat(next)
            .map((f) => relative(SRC, f))
            .join(" -> "),
        );
      else if (s === undefined) visit(next);
    }
    path.pop();
    state.set(file, "done");
  };
  for (const file of files) if (!state.has(file)) visit(file);
  expect(cycles).toEqual([]);
});
