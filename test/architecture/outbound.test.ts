/**
 * Every outbound connection passes the egress policy by construction: no file of src/
 * but the egress module (src/lib/egress/) calls fetch or opens a socket itself, so a
 * later piece of code that reaches out must take the egress fetch, and cannot forget
 * the check. A library that fetches on its own is given the egress fetch (openid-client's
 * `customFetch`); Redis and Postgres connect to the operator's own servers through
 * their clients, which this does not look for.
 */
import { expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";

const SRC = resolve(import.meta.dir, "../../src");
const EGRESS = "lib/egress/";
/**
 * Files that open a socket to the operator's own servers, never to an address a caller or
 * an admin chose: the Redis credentials probe asks the GW_REDIS_URL the Redis client uses
 * why it refused (src/state/redis/redis-credentials.ts). Each entry is named here, with its
 * reason, so a new one is a decision in review, not an oversight.
 */
const OPERATOR_SERVERS = new Set(["state/redis/redis-credentials.ts"]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The code without comments and string contents, so words in them do not count (template literals' `${}` parts stay). */
function codeOf(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/(^|[^:\\])\/\/.*$/gm, "$1")
    .replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g, '""');
}

/** What opens a connection without the policy: the global fetch (called or handed on), sockets, and the node clients. */
const OUTBOUND: [string, RegExp][] = [
  ["the global fetch", /(?<![.\w$])fetch\b(?!\s*:)(?!\s*\([^()]*\)\s*(?::[^{;]+)?\{)/],
  ["globalThis.fetch / Bun.fetch", /\b(?:globalThis|window|self|Bun)\s*\.\s*fetch\b/],
  ["Bun.connect / Bun.udpSocket", /\bBun\s*\.\s*(?:connect|udpSocket)\b/],
  ["WebSocket / EventSource / XMLHttpRequest", /\bnew\s+(?:WebSocket|EventSource|XMLHttpRequest)\b/],
];

/** Imports of node's networking clients (read from the raw text: the module name is a string). */
const NODE_NET =
  /\bfrom\s+["'](?:node:)?(?:net|http|https|http2|tls|dgram|undici)["']|\brequire\(\s*["'](?:node:)?(?:net|http|https|http2|tls|dgram)["']\s*\)/;

/** The method declarations `async fetch(req) {` and `fetch(req): Response {` are servers' handlers, not calls. */
const ASYNC_METHOD = /\basync\s+fetch\s*\(/g;

export function outboundUses(text: string): string[] {
  const code = codeOf(text).replace(ASYNC_METHOD, "async handler(");
  const found = OUTBOUND.filter(([, re]) => re.test(code)).map(([what]) => what);
  if (NODE_NET.test(text)) found.push("a node networking module");
  return found;
}

test("the detector finds each way of reaching out, and not a server's handler or a dependency's fetch", () => {
  expect(outboundUses("const r = await fetch(url, init);")).toEqual(["the global fetch"]);
  expect(outboundUses("deliver({ fetch, sleep });")).toEqual(["the global fetch"]);
  expect(outboundUses("const f = globalThis.fetch;")).toContain("globalThis.fetch / Bun.fetch");
  expect(outboundUses("Bun.connect({ hostname, port, socket })")).toEqual(["Bun.connect / Bun.udpSocket"]);
  expect(outboundUses('import { request } from "node:http";')).toEqual(["a node networking module"]);
  expect(outboundUses("const ws = new WebSocket(url);")).toEqual(["WebSocket / EventSource / XMLHttpRequest"]);
  expect(outboundUses("Bun.serve({ async fetch(request) { return new Response(); } })")).toEqual([]);
  expect(outboundUses("Bun.serve({ fetch(request): Response { return ok; } })")).toEqual([]);
  expect(outboundUses("await deps.fetch(url, { method: 'POST' }); const x = { fetch: egressFetch };")).toEqual([]);
  expect(outboundUses("// fetch(url) in a comment\nconst s = 'fetch(url)';")).toEqual([]);
});

test("no file of src/ but the egress module opens an outbound connection itself", () => {
  const offenders: string[] = [];
  for (const file of sourceFiles(SRC)) {
    const path = relative(SRC, file);
    if (path.startsWith(EGRESS) || OPERATOR_SERVERS.has(path)) continue;
    for (const what of outboundUses(readFileSync(file, "utf8"))) offenders.push(`${path}: ${what}`);
  }
  expect(offenders).toEqual([]);
});
