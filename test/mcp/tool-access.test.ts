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
