/** docs/mock-provider.md's fault tables are the mock's fault steers, format by format (src/mock-provider/fault-plan.ts). */
import { expect, test } from "bun:test";
import { faultNames } from "../../src/mock-provider/fault-plan.ts";
import type { FaultFamily } from "../../src/mock-provider/fault-types.ts";
import { page, spans, tableRows } from "./doc-pages.ts";

const FAMILIES: FaultFamily[] = ["chat", "messages"];

test("the fault tables list every fault of each format, and only those", () => {
  const text = page("docs/mock-provider.md");
  const at = text.indexOf("Whole answers and bodies:");
  expect(at).toBeGreaterThan(-1);
  const rows = [...tableRows(text.slice(0, at), "fault"), ...tableRows(text.slice(at), "fault")];
  // "any route" (hang) answers on both.
  const documented = rows.flatMap((r) =>
    spans(r.fault!).flatMap((name) =>
      FAMILIES.filter((f) => r.format!.startsWith("any route") || r.format!.split(/,\s*/).includes(f)).map((f) => `${f} fault-${name}`),
    ),
  );
  const steered = FAMILIES.flatMap((f) => faultNames(f).map((name) => `${f} ${name}`));
  expect([...new Set(documented)].sort()).toEqual(steered.sort());
});
