import { expect, test } from "bun:test";
import { createLogger } from "../../src/lib/log.ts";

test("one JSON object a line, filtered by level, buffered until flush", () => {
  const out: string[] = [];
  const log = createLogger("info", (c) => out.push(c));
  log.debug("hidden");
  log.info("request", { status: 200 });
  log.error("boom", { requestId: "r1" });
  expect(out).toEqual([]);
  log.flush();
  const lines = out
    .join("")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  expect(lines.map((l) => l.msg)).toEqual(["request", "boom"]);
  expect(lines[0]).toMatchObject({ level: "info", status: 200 });
  expect(typeof lines[0].time).toBe("string");
});

test("a line without fields, or with none set, is the time, level and message alone; a field's text is escaped", () => {
  const out: string[] = [];
  const log = createLogger("info", (c) => out.push(c));
  log.info("plain");
  log.info("empty", {});
  log.warn('say "hi"', { note: 'a "quoted"\nline', skipped: undefined });
  log.flush();
  const lines = out.join("").trim().split("\n");
  expect(lines).toHaveLength(3);
  const parsed = lines.map((l) => JSON.parse(l));
  expect(parsed.map((l) => Object.keys(l))).toEqual([
    ["time", "level", "msg"],
    ["time", "level", "msg"],
    ["time", "level", "msg", "note"],
  ]);
  expect(parsed[2]).toMatchObject({ level: "warn", msg: 'say "hi"', note: 'a "quoted"\nline' });
});

test("a field JSON cannot hold (a BigInt, a cycle) is written as text; the log call never throws", () => {
  const out: string[] = [];
  const log = createLogger("info", (c) => out.push(c));
  const looped: Record<string, unknown> = { name: "a" };
  looped.self = looped;
  log.info("flush", { spentMicros: 12345678901234567890n, row: looped });
  log.flush();
  expect(JSON.parse(out.join(""))).toMatchObject({
    msg: "flush",
    spentMicros: "12345678901234567890",
    row: { name: "a", self: "[repeated]" },
  });
});
