/**
 * The README's commands, run: every fenced `sh` and `ts` block, in order, against a
 * gateway ./scripts/start started on a fresh data folder. Two replacements only: the
 * README's example address (http://127.0.0.1:8080) and key (gw_live_...) become the
 * test gateway's. A block the README marks `<!-- smoke: run by FILE -->` (the start,
 * test and cluster scripts: long-running, or this suite itself) must name test files
 * that exist and run that script. A block in any other language fails: add it here.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { removeDir, ROOT, tempDataDir } from "./support/gateway-process.ts";
import { freePort } from "./support/servers.ts";

setDefaultTimeout(120_000);

interface Block {
  lang: string;
  code: string;
  /** Test files that run it instead, from a `<!-- smoke: run by … -->` line just above. */
  runBy: string[];
  line: number;
}

/** The fenced blocks of a Markdown file, with the marker line above each. */
function fencedBlocks(markdown: string): Block[] {
  const lines = markdown.split("\n");
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)/.exec(lines[i]!);
    if (!open) continue;
    const end = lines.indexOf("```", i + 1);
    const marker = /^<!-- smoke: run by (.+) -->$/.exec(lines[i - 1] ?? "");
    blocks.push({
      lang: open[1] ?? "",
      code: lines.slice(i + 1, end).join("\n"),
      runBy: marker ? marker[1]!.split(/ and |, /).map((s) => s.trim()) : [],
      line: i + 1,
    });
    i = end;
  }
  return blocks;
}

const README = readFileSync(join(ROOT, "README.md"), "utf8");
const blocks = fencedBlocks(README);
const dataDir = tempDataDir();
const scratch = join(ROOT, "test", "artifacts", `readme-${process.pid}`);
let start: Subprocess<"ignore", "pipe", "pipe">;
let env: Record<string, string>;

beforeAll(async () => {
  mkdirSync(scratch, { recursive: true });
  start = Bun.spawn(["bash", join(ROOT, "scripts", "start"), "--port", String(await freePort())], {
    cwd: ROOT,
    env: { ...process.env, GW_DATA_DIR: dataDir, GW_MOCK_PORT: "", GW_PORT: "" },
    stdout: "pipe",
    stderr: "pipe",
  });
  let out = "";
  const decoder = new TextDecoder();
  for await (const chunk of start.stdout) {
    out += decoder.decode(chunk, { stream: true });
    if (out.includes("Stop with Ctrl-C.")) break;
  }
  const set = /export GW_URL=(\S+) GW_KEY=(gw_live_\w+)/.exec(out);
  if (!set) throw new Error(`./scripts/start printed no GW_URL and GW_KEY:\n${out}`);
  env = { GW_URL: set[1]!, GW_KEY: set[2]!, GW_DATA_DIR: dataDir };
});

afterAll(async () => {
  start?.kill("SIGTERM");
  await start?.exited;
  removeDir(dataDir);
  rmSync(scratch, { recursive: true, force: true });
});

test("the README is a guide of at most 20 KB whose blocks are shell commands or TypeScript", () => {
  expect(statSync(join(ROOT, "README.md")).size).toBeLessThanOrEqual(20 * 1024);
  expect(blocks.length).toBeGreaterThan(5);
  for (const b of blocks) expect({ line: b.line, lang: b.lang }).toEqual({ line: b.line, lang: b.lang === "ts" ? "ts" : "sh" });
});

test("each block run elsewhere names test files that exist and run its script", () => {
  for (const b of blocks.filter((x) => x.runBy.length > 0)) {
    const sources = b.runBy.map((file) => {
      expect(existsSync(join(ROOT, file))).toBe(true);
      return readFileSync(join(ROOT, file), "utf8");
    });
    for (const command of b.code.split("\n").filter((l) => l.trim() && !l.trim().startsWith("#"))) {
      const script = command.trim().split(/\s+/)[0]!.replace(/^\.\//, "");
      const [dir, name] = script.split("/");
      const ran = sources.some((s) => s.includes(script) || s.includes(`"${dir}", "${name}"`));
      expect({ command, ran }).toEqual({ command, ran: true });
    }
  }
});

test("every other shell block runs against the started gateway and answers without an error", async () => {
  // The README's own `export GW_URL=… GW_KEY=…` block sets what the later blocks read, as it does for a reader.
  let exported = "";
  for (const b of blocks.filter((x) => x.lang === "sh" && x.runBy.length === 0)) {
    const code = b.code.replaceAll("http://127.0.0.1:8080", env.GW_URL!).replaceAll("gw_live_...", env.GW_KEY!);
    const run = Bun.spawnSync(["bash", "-euo", "pipefail", "-c", `${exported}\n${code}`], {
      cwd: ROOT,
      env: { ...process.env, GW_URL: "", GW_KEY: "", GW_DATA_DIR: dataDir },
      stdout: "pipe",
      stderr: "pipe",
    });
    const out = run.stdout.toString();
    const setsOnly = code.split("\n").every((l) => !l.trim() || l.trim().startsWith("#") || l.startsWith("export "));
    if (setsOnly) exported += `${code}\n`;
    // A command's notes may go to stderr (login-link's expiry, say): the exit code and the answer judge it.
    const result = {
      line: b.line,
      code: run.exitCode,
      answered: setsOnly || out.trim().length > 0,
      failed: /"success":false|"error":\{/.test(out),
    };
    expect({ ...result, stderr: run.stderr.toString(), out }).toMatchObject({ line: b.line, code: 0, answered: true, failed: false });
  }
  expect(exported).toContain(`GW_URL=${env.GW_URL}`);
});

test("every TypeScript block runs with GW_URL and GW_KEY set and prints an answer", () => {
  const ts = blocks.filter((x) => x.lang === "ts");
  expect(ts.length).toBeGreaterThan(0);
  for (const b of ts) {
    const file = join(scratch, `block-${b.line}.ts`);
    writeFileSync(file, b.code);
    const run = Bun.spawnSync(["bun", file], { cwd: ROOT, env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
    const result = { line: b.line, code: run.exitCode, stderr: run.stderr.toString() };
    expect(result).toEqual({ line: b.line, code: 0, stderr: "" });
    expect(run.stdout.toString().trim().length).toBeGreaterThan(0);
  }
});
