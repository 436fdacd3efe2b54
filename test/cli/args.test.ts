/** The commands' flag parsing: hostile arguments are usage errors before anything is opened, quoted back safely. */
import { expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { parseFlags, parseFlagsAndWords, UsageError } from "../../src/cli/args.ts";
import { removeDir, runCli, tempDataDir } from "../support/gateway-process.ts";

const SPEC = { org: { type: "string" }, json: { type: "boolean" } } as const;

const refusal = (run: () => unknown): string => {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as Error).message;
  }
  throw new Error("expected a UsageError");
};

test("a value with a control character or a bidirectional override is refused, quoted with it escaped", () => {
  expect(refusal(() => parseFlags(["--org", "Evil\x1b[2JOrg"], SPEC))).toBe(
    'the value of "--org" holds a control character ("Evil\\u001b[2JOrg"); arguments are plain text',
  );
  expect(refusal(() => parseFlags(["--org=Acme\nsecond line"], SPEC))).toContain('"--org=Acme\\nsecond line"');
  const bidi = refusal(() => parseFlagsAndWords(["approve", "org\u202Emoc.evil"], {}, ["ORG", "DOMAIN"]));
  expect(bidi).toContain("org\\u202emoc.evil");
  expect(bidi).not.toContain("\u202E");
});

test("an argument past 4,096 characters is refused by its length, not echoed whole", () => {
  const huge = "a".repeat(100_000);
  const message = refusal(() => parseFlags(["--org", huge], SPEC));
  expect(message).toBe('the value of "--org" is 100000 characters long; arguments are at most 4096');
  expect(refusal(() => parseFlags([`--${huge}`], SPEC)).length).toBeLessThan(200);
  // Plain text of an ordinary length, accents and all, passes.
  expect(parseFlags(["--org", "Société Générale — 東京"], SPEC)).toEqual({ org: "Société Générale — 東京" });
});

test("gateway init with an escape sequence in --org exits 2 and writes nothing", async () => {
  const dir = tempDataDir();
  const data = join(dir, "data");
  const r = await runCli(["init", "--data", data, "--org", "Acme\x1b]0;pwned\x07", "--email", "ops@example.com"]);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain("holds a control character");
  expect(r.stderr).not.toContain("\x1b");
  expect(r.stdout).toBe("");
  expect(existsSync(data)).toBe(false);
  expect(readdirSync(dir)).toEqual([]);
  removeDir(dir);
});
