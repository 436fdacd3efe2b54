/**
 * Every repository path a page names exists (a path that moved is a broken link for the
 * reader), and every link between the pages reaches its page and heading.
 */
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { page, pages, prose, ROOT } from "./doc-pages.ts";

const TOP = "src|test|docs|scripts|bench|web|deploy|scanner|\\.ci";
// A path in another repository is written `owner/repo:path` (a reference's source), never read as one of ours.
const PATH = new RegExp(`(?<![\\w./:-])(?:${TOP})/[\\w./-]*[\\w/]`, "g");

/** Where a path is written and ignored by git (.gitignore): the tests' artifacts, per-run benchmark files, the client suite's installs. */
const GENERATED = [/^test\/artifacts(\/|$)/, /^bench\/results(\/|$)/, /^test\/clients\/(\.venv|node_modules)$/];

/** The repository's files (tracked, or new and not ignored), and the folders that hold them. */
const tracked = await (async () => {
  const git = Bun.spawn(["git", "ls-files", "--cached", "--others", "--exclude-standard"], { cwd: ROOT, stdout: "pipe" });
  const files = (await new Response(git.stdout).text()).split("\n").filter(Boolean);
  return new Set(files.flatMap((f) => f.split("/").map((_, i, parts) => parts.slice(0, i + 1).join("/"))));
})();

test("every repository path a page names exists", () => {
  const missing: string[] = [];
  for (const { path, text } of pages())
    for (const named of new Set(text.match(PATH) ?? [])) {
      const p = named.replace(/\/$/, "").replace(/\.$/, "");
      if (GENERATED.some((g) => g.test(p))) continue;
      if (!tracked.has(p)) missing.push(`${path}: ${named}`);
    }
  expect(missing).toEqual([]);
});

test("every file a page names in code by its name or a partial path (`forward.ts`, `pipeline/forward.ts`) is a file of the repository", () => {
  const files = [...tracked];
  const missing: string[] = [];
  for (const { path, text } of pages())
    for (const m of prose(text).matchAll(/`((?:[\w.-]+\/)*[\w.-]+\.(?:ts|tsx|sql|json|sh|py|yml|yaml))`/g)) {
      const named = m[1]!;
      // `NNN_what.sql`: the migration naming pattern; `../…`: a file beside the clone, not in it.
      if (/^NNN_|^\.\.\//.test(named) || tracked.has(named)) continue;
      if (!files.some((f) => f.endsWith(`/${named}`))) missing.push(`${path}: ${named}`);
    }
  expect(missing).toEqual([]);
});

/** GitHub's heading anchors: lower case, punctuation but `-` and `_` dropped, spaces as `-`, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  for (const m of prose(markdown).matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = m[1]!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, "")
      .replace(/ /g, "-");
    const n = seen.get(slug) ?? 0;
    out.add(n ? `${slug}-${n}` : slug);
    seen.set(slug, n + 1);
  }
  return out;
}

test("every link between the pages reaches its file and heading", () => {
  const broken: string[] = [];
  for (const { path, text } of pages())
    for (const m of prose(text).matchAll(/\]\(([^)\s]+)\)/g)) {
      const link = m[1]!;
      if (/^[a-z]+:/.test(link)) continue;
      const [file, anchor] = link.split("#");
      const target = file ? resolve(ROOT, dirname(path), file) : join(ROOT, path);
      if (!existsSync(target)) broken.push(`${path}: ${link}`);
      else if (anchor && target.endsWith(".md") && !anchors(page(relative(ROOT, target))).has(anchor))
        broken.push(`${path}: ${link} (no such heading)`);
    }
  expect(broken).toEqual([]);
});
