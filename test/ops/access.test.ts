/** The access rule alone: each level for each kind of caller, and param-chosen levels. */
import { expect, test } from "bun:test";
import { ACCESS_LEVELS, accessCases, accessFor, refusalFor } from "../../src/ops/access.ts";

test("sandbox keys read and call only; members never reach admin levels", () => {
  const row = (role: "admin" | "member", sandbox: boolean) => ACCESS_LEVELS.map((a) => refusalFor(a, { role, sandbox }));
  // read, admin-read, call, member-write, admin
  expect(row("admin", true)).toEqual([null, null, null, "sandbox", "sandbox"]);
  expect(row("admin", false)).toEqual([null, null, null, null, null]);
  expect(row("member", false)).toEqual([null, "role", null, null, "role"]);
  expect(row("member", true)).toEqual([null, "role", null, "sandbox", "role"]);
});

test("a param-chosen level: absent, present, and present with a value outside `values`", () => {
  const byScope = { param: "scope", absent: "member-write", present: "admin", values: ["organization"] } as const;
  expect(accessFor(byScope, {})).toBe("member-write");
  expect(accessFor(byScope, { scope: "organization" })).toBe("admin");
  expect(accessFor(byScope, { scope: "user" })).toBe("member-write");
  expect(accessFor(byScope, null)).toBe("member-write");
  const bySet = { param: "set", absent: "read", present: "member-write" } as const;
  expect(accessFor(bySet, { set: {} })).toBe("member-write");
  expect(accessCases(bySet).map((c) => [c.access, c.when])).toEqual([
    ["read", null],
    ["member-write", "with `set`"],
  ]);
  expect(accessCases(byScope)[1]).toEqual({ params: { scope: "organization" }, access: "admin", when: 'with `scope: "organization"`' });
});
