import { expect, test } from "bun:test";
import { allowsServer, allowsTool, allowsWholeServer, matchesPattern, splitNamespaced } from "../../src/mcp/tool-access.ts";

test("patterns match whole names, `*` any run of characters, everything else literally", () => {
  expect(matchesPattern("*", "anything")).toBe(true);
  expect(matchesPattern("github__*", "github__create_issue")).toBe(true);
  expect(matchesPattern("github__*", "gitlab__create_issue")).toBe(false);
  expect(matchesPattern("*__read_*", "wiki__read_page")).toBe(true);
  expect(matchesPattern("a.b", "axb")).toBe(false);
  expect(matchesPattern("wiki", "wiki2")).toBe(false);
});

test("a pattern of many stars is matched in steps bounded by its length times the name's, never by backtracking", () => {
  // An admin's pattern against a 40-character server name and a server's 128-character tool name. As a
  // regular expression this backtracked through every way of placing the stars: the node's one thread held
  // for minutes, for every organization (it never returned here).
  const name = `${"a".repeat(40)}__${"a".repeat(128)}`;
  expect(matchesPattern(`${"*a".repeat(60)}*b`, name)).toBe(false);
  expect(matchesPattern(`${"*a".repeat(60)}*`, name)).toBe(true);
  expect(allowsServer({ servers: [`${"*a".repeat(20)}*b`], tools: ["*"] }, "a".repeat(40))).toBe(false);
  expect(allowsWholeServer({ servers: ["*"], tools: [`${"*a".repeat(60)}*b*`] }, "a".repeat(40))).toBe(false);
  // Stars at either end, runs of stars, and literal characters that mean something in a regular expression.
  for (const [pattern, candidate, matches] of [
    ["**", "", true],
    ["", "", true],
    ["", "x", false],
    ["a**b", "ab", true],
    ["a*b*c", "abbbc", true],
    ["a*b*c", "abcb", false],
    ["*.read", "wiki__x.read", true],
    ["(x)+[y]", "(x)+[y]", true],
    ["a?c", "abc", false],
    ["*_x", "a_x_x", true],
  ] as const)
    expect([pattern, candidate, matchesPattern(pattern, candidate)]).toEqual([pattern, candidate, matches]);
});

test("no allow lists allow everything; lists limit servers and tools", () => {
  expect(allowsTool(null, "wiki", "read_page")).toBe(true);
  const lists = { servers: ["wiki", "git*"], tools: ["wiki__weather", "github__*"] };
  expect(allowsServer(lists, "wiki")).toBe(true);
  expect(allowsServer(lists, "everything")).toBe(false);
  expect(allowsTool(lists, "wiki", "weather")).toBe(true);
  expect(allowsTool(lists, "wiki", "read_page")).toBe(false);
  expect(allowsTool(lists, "github", "create_issue")).toBe(true);
  // A tool pattern does not reopen a server the server list closes.
  expect(allowsTool({ servers: ["wiki"], tools: ["*"] }, "github", "create_issue")).toBe(false);
});

test("namespaced names split at the first separator; the tool keeps any of its own", () => {
  expect(splitNamespaced("github__create_issue")).toEqual({ server: "github", tool: "create_issue" });
  expect(splitNamespaced("wiki__a__b")).toEqual({ server: "wiki", tool: "a__b" });
  expect(splitNamespaced("plain")).toBeNull();
  expect(splitNamespaced("__x")).toBeNull();
});

test("a server's resources and prompts need every one of its tools allowed, by one pattern", () => {
  expect(allowsWholeServer(null, "github")).toBe(true);
  const whole = (...tools: string[]) => allowsWholeServer({ servers: ["*"], tools }, "github");
  for (const pattern of ["*", "github__*", "git*", "*__*", "g*b__*", "github__**"]) expect(whole(pattern)).toBe(true);
  // Some tools of it, or another server's, or one pattern not ending in `*`: its resources and prompts stay closed.
  for (const pattern of ["github__list_*", "github__create_issue", "*_issue", "gitlab__*", "github___*", "*__read"])
    expect(whole(pattern)).toBe(false);
  expect(whole("github__list_*", "wiki__*")).toBe(false);
  expect(whole("wiki__*", "github__*")).toBe(true);
  // The server list still decides first.
  expect(allowsWholeServer({ servers: ["wiki"], tools: ["*"] }, "github")).toBe(false);
});
