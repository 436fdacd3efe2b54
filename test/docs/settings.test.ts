/**
 * The settings the pages name are the ones the code reads: every `GW_*` variable the
 * gateway, its commands or its scripts read is documented, every one a page names is read,
 * each settings table's flags and defaults are src/config.ts's, the tracing table's
 * variables are the ones tracing reads, and deploy/'s environment file is a valid one.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describeSettings, loadConfig } from "../../src/config.ts";
import { OTEL_VARIABLES } from "../../src/lib/tracing/otel-config.ts";
import { filesUnder, page, pages, ROOT, spans, tableRows } from "./doc-pages.ts";

const NAME = /\bGW_[A-Z0-9]+(?:_[A-Z0-9]+)*\b/g;

/** Names that are no setting: the README's client-side shell variables, and the typo the pages and the code use as their example of one. */
const NOT_READ = new Set(["GW_URL", "GW_KEY", "GW_MASTERKEY", "GW_DATA_DIRECTORY"]);
/** Read, but not the operator's to set: `gateway serve --workers` marks its own worker processes with it. */
const INTERNAL = new Set(["GW_SERVE_WORKER"]);


/** What the gateway, its commands and scripts read (src/, scripts/), and the variables the tests themselves read from the environment. */
function namesRead(): Set<string> {
  const code = [...filesUnder(join(ROOT, "src")), ...filesUnder(join(ROOT, "scripts")), join(ROOT, "gateway")]
    .filter((f) => /\.(ts|sh)$|\/(start|test|cluster|gateway)$/.test(f))
    .flatMap((f) => readFileSync(f, "utf8").match(NAME) ?? []);
  const tests = filesUnder(join(ROOT, "test"))
    .filter((f) => f.endsWith(".ts"))
    .flatMap((f) => [...readFileSync(f, "utf8").matchAll(/process\.env\.(GW_[A-Z0-9_]+)/g)].map((m) => m[1]!));
  return new Set([...code, ...tests].filter((n) => !NOT_READ.has(n)));
}

function namesDocumented(): Set<string> {
  return new Set(pages().flatMap((p) => p.text.match(NAME) ?? []));
}

test("every GW_* variable the code reads is named in the pages", () => {
  const documented = namesDocumented();
  const missing = [...namesRead()].filter((n) => !documented.has(n) && !INTERNAL.has(n)).sort();
  expect(missing).toEqual([]);
});

test("every GW_* variable the pages name is read by the code", () => {
  const read = namesRead();
  const unread = [...namesDocumented()].filter((n) => !read.has(n) && !NOT_READ.has(n)).sort();
  expect(unread).toEqual([]);
});

test("every setting is in docs/configuration.md", () => {
  const text = page("docs/configuration.md");
  const missing = describeSettings()
    .map((s) => s.env)
    .filter((env) => !text.includes(`\`${env}\``));
  expect(missing).toEqual([]);
});

test("every setting with a flag has its row, flag included, in docs/configuration.md's table", () => {
  const rows = tableRows(page("docs/configuration.md"), "variable");
  for (const s of describeSettings().filter((s) => s.flag)) {
    const row = rows.find((r) => spans(r.variable!).includes(s.env));
    expect(row, s.env).toBeDefined();
    expect(spans(row!.flag!), s.env).toContain(`--${s.flag}`);
  }
});

/**
 * A documented default, as the setting would read it: a plain value (`8080`, `info`,
 * 1,000,000, 32 MiB), or null where the page describes what an unset setting means
 * (generated, SQLite, in memory, built in, off).
 */
function documentedValue(cell: string): string | null {
  const plain = cell.replace(/^`([^`]*)`$/, "$1");
  if (/^[\d,]+$/.test(plain)) return plain.replaceAll(",", "");
  const mib = /^(\d+) MiB$/.exec(plain);
  if (mib) return String(Number(mib[1]) * 1024 * 1024);
  if (/^(true|false|[a-z0-9.\/]+)$/.test(plain) && cell.startsWith("`")) return plain;
  if (/^(true|false)$/.test(plain)) return plain;
  return null;
}

describe.each([
  ["docs/configuration.md", "default"],
  ["docs/scale-out.md", "default"],
  ["README.md", "default"],
])("%s: each settings table's defaults are the code's", (path, column) => {
  const fallback = loadConfig({}, {});
  const settings = new Set(describeSettings().map((s) => s.env));
  const rows = tableRows(page(path), "variable").filter((r) => spans(r.variable!).some((n) => settings.has(n)));

  test("the table has rows", () => expect(rows.length).toBeGreaterThan(0));

  for (const row of rows) {
    const names = spans(row.variable!);
    // Several variables in a row give their defaults in the same order, comma-separated.
    const defaults = names.length > 1 ? row[column]!.split(/,\s*/) : [row[column]!];
    names.forEach((env, i) => {
      const cell = (defaults[i] ?? "").trim();
      const value = documentedValue(cell);
      test(`${env}: ${cell || "(unset)"}`, () => {
        // Set to its documented default, the setting reads as it does unset; a default that
        // describes the unset state is what the variable set empty gives.
        expect(loadConfig({}, { [env]: value ?? "" })).toEqual(fallback);
      });
    });
  }
});

test("docs/observability.md's tracing table lists every OTEL_* variable the gateway reads, and only those", () => {
  const listed = tableRows(page("docs/observability.md"), "variable").flatMap((r) => r.variable!.match(/\bOTEL_[A-Z_]+[A-Z]/g) ?? []);
  expect(listed.sort()).toEqual([...OTEL_VARIABLES].sort());
});

test("deploy/gateway.env.example is a valid configuration once its master key is filled in", () => {
  const env = Object.fromEntries(
    readFileSync(join(ROOT, "deploy/gateway.env.example"), "utf8")
      .split("\n")
      .filter((l) => /^GW_[A-Z_]+=/.test(l))
      .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
  );
  expect(env.GW_MASTER_KEY).toBe("CHANGE-ME");
  const config = loadConfig({}, { ...env, GW_MASTER_KEY: Buffer.alloc(32, 7).toString("base64") });
  expect(config.redisUrl).toBe(env.GW_REDIS_URL!);
  expect(Object.keys(env).filter((v) => !describeSettings().some((s) => s.env === v))).toEqual([]);
});
