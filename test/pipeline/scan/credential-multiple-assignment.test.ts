/**
 * A multiple assignment read as its single assignments (credential-multiple-assignment.ts): Go's, Python's, Ruby's,
 * Lua's and Perl's forms. Written from the languages' syntax; placeholders, variables and pairs that name no
 * credential stay unflagged.
 */
import { describe, expect, test } from "bun:test";
import { secretKinds } from "./fixture-scans.ts";

describe("found", () => {
  test.each([
    ["Go's short declaration", 'user, pass := "admin", "Tr7bN2qXz4"'],
    ["Go with camelCase names", 'dbUser, dbPassword := "svc", "Zq7xN3pLw9!b"'],
    ["Python's tuple assignment", 'user, password = "svc", "Zq7xN3pLw9!b"'],
    ["Perl's list assignment", 'my ($user, $pass) = ("svc", "Tr7bN2qXz4");'],
    ["a token beside a host", "host, token = 'api.corp.example', 'Xq7Lm2Rk9XwTq8Lp3Nz5Vb2H'"],
  ])("%s", (_, text) => {
    expect(secretKinds(text)).toContain("password_assignment");
  });
});

describe("not found", () => {
  test.each([
    ["a placeholder", 'user, pass := "admin", "changeme"'],
    ["a variable in the password's place", 'user, pass := "admin", os.Getenv("DB_PASS")'],
    ["names that are no credential's", 'first, last = "Ada", "Lovelace"'],
    ["a host and a port", 'host, port = "db", "5432"'],
    ["the word itself as the value", 'x, password = "a", "password"'],
    ["more values than names", 'user, pass = "svc", "Tr7bN2qXz4", "extra"'],
    ["HTML attributes", '<a class="btn" id="Tr7bN2qXz4">'],
  ])("%s", (_, text) => {
    expect(secretKinds(text)).toEqual([]);
  });
});
