/**
 * The commands the pages show are the executable's: docs/configuration.md's table is
 * `gateway --help`'s usage lines, and every `gateway …` command in a page names a command
 * and only flags that command takes.
 */
import { beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { codeSpans, page, pages, ROOT, shellLines, spans, tableRows } from "./doc-pages.ts";

/** Each command's usage line as `gateway --help` prints it, spelled `gateway …`. */
let usages: string[];

beforeAll(async () => {
  const help = Bun.spawn([process.execPath, join(ROOT, "src/cli.ts"), "--help"], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  const out = await new Response(help.stdout).text();
  expect(await help.exited).toBe(0);
  usages = out
    .split("\n")
    .map((l) => /^ {2}(?:\.\/)?(gateway .+)$/.exec(l)?.[1])
    .filter((u): u is string => u !== undefined);
});

/** The command words of a usage line or an example: `sign-in-domains approve`, `serve`. */
function commandOf(line: string, known: string[]): string | undefined {
  const words = line.replace(/^(?:\.\/)?gateway /, "").split(/\s+/);
  return known.find((c) => words.slice(0, c.split(" ").length).join(" ") === c);
}

const flagsOf = (text: string) => [...text.matchAll(/(?:^|[\s[|])(--[a-z][a-z-]*)/g)].map((m) => m[1]!);

test("gateway --help lists every command", () => {
  expect(usages.length).toBeGreaterThan(5);
  expect(usages.at(-1)).toBe("gateway --help | --version");
});

test("docs/configuration.md's command table is gateway --help's usage lines", () => {
  const table = tableRows(page("docs/configuration.md"), "command").flatMap((r) => spans(r.command!));
  const commands = usages.slice(0, -1).map((u) => u.split("\n")[0]!);
  expect(table.filter((c) => !c.startsWith("gateway --"))).toEqual(commands);
});

test("every gateway command a page shows exists and takes the flags it is shown with", () => {
  const commands = usages.slice(0, -1).map((u) => u.replace(/^gateway /, "").split(/ (?=--|\[|[A-Z])/)[0]!);
  const usageOf = (command: string) => usages.find((u) => u.startsWith(`gateway ${command}`))!;
  const wrong: string[] = [];
  for (const { path, text } of pages()) {
    const shown = [...codeSpans(text), ...shellLines(text).map((l) => l.trim())]
      .map((s) => s.replace(/\s+#.*$/, ""))
      .filter((s) => /^(?:\.\/)?gateway (?:[a-z-]|--)/.test(s));
    for (const example of shown) {
      if (/^(?:\.\/)?gateway (?:--help|--version|…)/.test(example)) continue;
      const command = commandOf(example, commands);
      if (!command) {
        wrong.push(`${path}: \`${example}\` names no command`);
        continue;
      }
      for (const flag of flagsOf(example.replace(/^(?:\.\/)?gateway /, "")))
        if (!flagsOf(usageOf(command)).includes(flag) && flag !== "--help") wrong.push(`${path}: \`${example}\`: ${command} takes no ${flag}`);
    }
  }
  expect(wrong).toEqual([]);
});
