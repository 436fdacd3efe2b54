/**
 * The gateway operations the pages describe are the registry's: every operation is in
 * docs/operations.md, every row there is registered, docs/api.md's families cover them
 * all, every param is named where its operation is documented, and every
 * `{"operation": …, "params": …}` example in a page is one the operation accepts.
 */
import { expect, test } from "bun:test";
import { compileValidator } from "../../src/lib/validator.ts";
import { createOperationRegistry } from "../../src/ops/index.ts";
import { page, pages, spans, tableRows } from "./doc-pages.ts";

const registry = createOperationRegistry();
const ids = registry.ids();

test("every operation is in docs/operations.md", () => {
  const text = page("docs/operations.md");
  expect(ids.filter((id) => !text.includes(`\`${id}\``))).toEqual([]);
});

test("every operation docs/operations.md's table lists is registered", () => {
  const listed = tableRows(page("docs/operations.md"), "operation").flatMap((r) => spans(r.operation!));
  expect(listed.length).toBeGreaterThan(10);
  expect(listed.filter((id) => !ids.includes(id))).toEqual([]);
});

test("docs/api.md's families name every operation's family", () => {
  const text = page("docs/api.md");
  const section = text.slice(text.indexOf("## Gateway operations"), text.indexOf("## Analytics and alerts"));
  const missing = ids.filter((id) => !section.includes(`\`${id}\``) && !section.includes(`\`${id.split(".")[0]}.*\``));
  expect(missing).toEqual([]);
});

/** Each `{"operation": …}` object in the text, from its opening brace to the one that closes it. */
function operationExamples(text: string): string[] {
  const found: string[] = [];
  for (let at = text.indexOf('{"operation"'); at !== -1; at = text.indexOf('{"operation"', at + 1)) {
    let depth = 0;
    let inString = false;
    for (let i = at; i < text.length; i++) {
      const c = text[i];
      if (inString) {
        if (c === "\\") i++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === "{") depth++;
      else if (c === "}" && --depth === 0) {
        found.push(text.slice(at, i + 1));
        break;
      }
    }
  }
  return found;
}

test("every operation example in the pages names an operation and params it accepts", () => {
  const schemas = new Map(registry.described().map((d) => [d.id, compileValidator(d.params)]));
  const wrong: string[] = [];
  let examples = 0;
  for (const { path, text } of pages()) {
    for (const example of operationExamples(text)) {
      examples++;
      let body: { operation: string; params?: unknown };
      try {
        body = JSON.parse(example);
      } catch {
        wrong.push(`${path}: not JSON: ${example.slice(0, 80)}`);
        continue;
      }
      const schema = schemas.get(body.operation);
      if (!schema) wrong.push(`${path}: no operation ${body.operation}`);
      else
        try {
          schema.parse(body.params ?? {}, "params");
        } catch (err) {
          wrong.push(`${path}: ${body.operation}: ${(err as Error).message}`);
        }
    }
  }
  expect(examples).toBeGreaterThan(10);
  expect(wrong).toEqual([]);
});

test("every param of every operation is named where the operation is documented", () => {
  // Rows of any page's tables whose first cell names the operation, and provider.create's own section.
  const rows = pages().flatMap(({ text }) => text.split("\n").filter((l) => l.startsWith("| ")));
  const operations = page("docs/operations.md");
  const providerParams = operations.slice(operations.indexOf("## provider.create params"), operations.indexOf("## Added with the dashboard"));
  const missing: string[] = [];
  for (const { id, params } of registry.described()) {
    let text = rows.filter((l) => (l.split(/(?<!\\)\|/)[1] ?? "").includes(`\`${id}\``)).join("\n");
    if (id === "provider.create" || id === "provider.update") text += providerParams;
    // The params, and the fields of an object param (`user.preferences`' `set`, `provider.create`'s `limits`).
    const properties = (schema: unknown) => Object.entries((schema as { properties?: Record<string, unknown> }).properties ?? {});
    const names = properties(params).flatMap(([name, inner]) => [name, ...properties(inner).map(([field]) => field)]);
    for (const name of names) if (!new RegExp(`\`${name}[\`?:]`).test(text)) missing.push(`${id}: ${name}`);
  }
  expect(missing).toEqual([]);
});
