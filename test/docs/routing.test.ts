/** docs/routing.md's weights table and task thresholds are src/routing/strategy.ts's. */
import { expect, test } from "bun:test";
import { BALANCED_WEIGHTS, MIN_QUALITY, TASK_TYPES } from "../../src/routing/strategy.ts";
import { page, tableRows } from "./doc-pages.ts";

const text = page("docs/routing.md");

test("the balanced weights table is the code's, task by task", () => {
  const rows = tableRows(text, "task_type");
  const documented = Object.fromEntries(
    rows.map((r) => [r.task_type!.split(" ")[0], { cost: Number(r.cost), speed: Number(r.speed), quality: Number(r.quality) }]),
  );
  expect(documented).toEqual(BALANCED_WEIGHTS);
});

test("the quality each task needs is the code's", () => {
  const row = tableRows(text, "request has").find((r) => r["request has"]!.startsWith("`task_type:"));
  const tasks = [...row!["request has"]!.matchAll(/\b(reasoning|code|chat)\b/g)].map((m) => m[1]!);
  const floors = (row!["candidate needs"]!.match(/\d+/g) ?? []).map(Number);
  expect(tasks.length).toBe(floors.length);
  tasks.forEach((task, i) => expect(MIN_QUALITY[task as (typeof TASK_TYPES)[number]]).toBe(floors[i]!));
  // Every task with a floor above zero is in the row.
  expect(TASK_TYPES.filter((t) => MIN_QUALITY[t] > 0).sort() as string[]).toEqual([...tasks].sort());
});
