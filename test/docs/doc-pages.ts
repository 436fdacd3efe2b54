/** The user's and operator's pages (README.md, docs/*.md, deploy/README.md) as the docs tests read them: prose, code spans and fenced blocks apart. */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

export const ROOT = resolve(import.meta.dir, "../..");

export interface Page {
  /** Repository path: `README.md`, `docs/api.md`. */
  path: string;
  text: string;
}

/** README.md, every page of docs/ (docs/history/ is the record of past runs, not instructions) and deploy/README.md. */
export function pages(): Page[] {
  const docs = readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .sort()
    .map((f) => `docs/${f}`);
  return ["README.md", ...docs, "deploy/README.md"].map((path) => ({ path, text: readFileSync(join(ROOT, path), "utf8") }));
}

export function page(path: string): string {
  return readFileSync(join(ROOT, path), "utf8");
}

/** The text with fenced blocks removed: links and headings in an example are not the page's. */
export function prose(text: string): string {
  return text.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, "");
}

/** The lines of fenced shell blocks. */
export function shellLines(text: string): string[] {
  return [...text.matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```$/gm)].flatMap((m) => m[1]!.split("\n"));
}

/** Every inline code span (`...`) of the prose. */
export function codeSpans(text: string): string[] {
  return [...prose(text).matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);
}

/**
 * A Markdown table's rows, each keyed by its column's header, found by the header's first
 * cell; `\|` inside a cell stays a literal bar.
 */
export function tableRows(text: string, firstHeader: string): Record<string, string>[] {
  const lines = text.split("\n");
  const start = lines.findIndex((l) => l.startsWith(`| ${firstHeader} |`));
  if (start === -1) throw new Error(`no table headed "${firstHeader}"`);
  const cells = (line: string) =>
    line
      .slice(1, -1)
      .split(/(?<!\\)\|/)
      .map((c) => c.trim().replaceAll("\\|", "|"));
  const header = cells(lines[start]!);
  const rows: Record<string, string>[] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    const row = cells(line);
    rows.push(Object.fromEntries(header.map((h, i) => [h, row[i] ?? ""])));
  }
  return rows;
}

/** The backticked names in a cell: `GW_HOST`, `--host`. */
export function spans(cell: string): string[] {
  return [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
}

/** Every file under a folder of the repository, at any depth. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** The TypeScript files of src/. */
export const sourceFiles = (): string[] => filesUnder(join(ROOT, "src")).filter((f) => f.endsWith(".ts"));
