/** docs/security.md's access table is the registry's: a new operation, or a changed declaration, fails here until the page is regenerated. */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { renderAccessTable, TABLE_END, TABLE_START } from "../../src/ops/access-table.ts";
import { createOperationRegistry } from "../../src/ops/index.ts";
import { SANDBOX_ADMIN_ATTACKED_OPERATIONS } from "../security/harness.ts";

test("docs/security.md carries the table generated from the registry (bun scripts/access-table.ts)", () => {
  const page = readFileSync(join(import.meta.dir, "../../docs/security.md"), "utf8");
  const start = page.indexOf(TABLE_START);
  const end = page.indexOf(TABLE_END);
  expect(start).toBeGreaterThan(-1);
  expect(end).toBeGreaterThan(start);
  expect(page.slice(start + TABLE_START.length, end).trim()).toBe(renderAccessTable(createOperationRegistry()));
});

test("every operation has a row, and the attacked operations refuse a sandbox admin key", () => {
  const registry = createOperationRegistry();
  const table = renderAccessTable(registry);
  for (const id of registry.ids()) expect(table).toContain(`| \`${id}\``);
  for (const id of SANDBOX_ADMIN_ATTACKED_OPERATIONS) expect(table).toContain(`| \`${id}\` | admin | 403 |`);
});

test("context.scope reaches the level its param does: an operation it fills a scope param of shows both, and a member is refused", () => {
  const registry = createOperationRegistry();
  const table = renderAccessTable(registry);
  const filled = registry.ids().filter((id) => registry.contextScope(id) === "param");
  expect(filled).toContain("provider.create");
  for (const id of filled) {
    const declared = registry.declaredAccess(id)!;
    if (typeof declared === "string") continue;
    for (const value of declared.values ?? []) expect(table).toContain(`| \`${id}\` with \`scope: "${value}"\` or \`context.scope: "${value}"\` |`);
  }
  expect(table).toContain('| `provider.create` with `scope: "organization"` or `context.scope: "organization"` | admin | 403 | 403 | yes | 403 | yes | 401 |');
});
