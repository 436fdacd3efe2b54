import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readGuardBase, verdict } from "../../bench/lib/guard-verdict.ts";

const ROOT = join(import.meta.dir, "..", "..");

describe("the regression guard's verdict", () => {
  test("the ratio is the median of the pairs' own ratios, so one disturbed pair does not move it", () => {
    // Pair 3 ran while the machine was busy: both sides slowed, the change's round most.
    const v = verdict({ base: [50, 52, 100, 51, 49], change: [51, 52, 180, 52, 50] }, 0.1);
    expect(v.ratio).toBeCloseTo(51 / 50, 6);
    expect(v.over).toBe(false);
    expect(v.pairs).toBe(5);
  });

  test("a change costing more than the margin in most pairs fails", () => {
    const v = verdict({ base: [50, 50, 50, 50], change: [56, 57, 56, 49] }, 0.1);
    expect(v.ratio).toBeCloseTo(1.12, 6);
    expect(v.over).toBe(true);
  });

  test("a ratio at the margin passes; only above it fails", () => {
    expect(verdict({ base: [100], change: [110] }, 0.1).over).toBe(false);
    expect(verdict({ base: [100], change: [111] }, 0.1).over).toBe(true);
  });

  test("unpaired rounds are not judged", () => {
    expect(() => verdict({ base: [], change: [] }, 0.1)).toThrow("no paired rounds");
  });
});

describe("the guard's base revision", () => {
  test("is the first line that is not a comment", () => {
    expect(readGuardBase("# why\n\n03b9055b1704a95bd101fbcfea25eb597849302d\n# later\n")).toBe("03b9055b1704a95bd101fbcfea25eb597849302d");
  });

  test("a file without a commit id is refused with the reason", () => {
    expect(() => readGuardBase("# only a comment\n")).toThrow("names no revision");
    expect(() => readGuardBase("main\n")).toThrow("names no revision");
  });

  test("the committed base is a commit of this repository's history", async () => {
    const rev = readGuardBase(readFileSync(join(ROOT, "bench", "guard-base"), "utf8"));
    const git = Bun.spawn(["git", "cat-file", "-e", `${rev}^{commit}`], { cwd: ROOT, stderr: "pipe" });
    expect(await git.exited).toBe(0);
  });
});
