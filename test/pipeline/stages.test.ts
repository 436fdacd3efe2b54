/** The stage runner both lists share: afters in reverse, once, each one whatever the others do. */
import { expect, test } from "bun:test";
import type { TraceSpan } from "../../src/lib/tracing/trace-span.ts";
import { type Stage, startStages } from "../../src/pipeline/stages.ts";

type Log = string[];

function stage(log: Log, name: string, after: (result: string | null) => void | Promise<void> = () => {}): Stage<null, string> {
  return {
    name,
    before() {
      log.push(`before ${name}`);
      return async (result) => {
        await after(result);
        log.push(`after ${name} ${result ?? "none"}`);
      };
    },
  };
}

function syncStage(log: Log, name: string, fail = false): Stage<null, string> {
  return {
    name,
    before() {
      log.push(`before ${name}`);
      return (result) => {
        log.push(`after ${name} ${result ?? "none"}`);
        if (fail) throw new Error(`${name} failed`);
      };
    },
  };
}

test("an after that waits holds the earlier ones until it is done; synchronous afters run at once", async () => {
  const log: Log = [];
  const end = await startStages([syncStage(log, "a"), stage(log, "slow", () => Bun.sleep(1)), syncStage(log, "b")], null);
  const pending = end("ok");
  expect(log).toEqual(["before a", "before slow", "before b", "after b ok"]);
  await pending;
  expect(log).toEqual(["before a", "before slow", "before b", "after b ok", "after slow ok", "after a ok"]);
});

test("an after that throws does not keep the earlier ones from running; the first failure is thrown at the end", async () => {
  const log: Log = [];
  const end = await startStages([syncStage(log, "a"), syncStage(log, "b", true), syncStage(log, "c", true)], null);
  expect(() => end("ok")).toThrow("c failed");
  expect(log.filter((l) => l.startsWith("after"))).toEqual(["after c ok", "after b ok", "after a ok"]);
  // Once only, even after a failure.
  end("again");
  expect(log.filter((l) => l.startsWith("after"))).toHaveLength(3);
});

test("an after that rejects does not keep the earlier ones from running either", async () => {
  const log: Log = [];
  const rejecting = stage(log, "r", async () => {
    throw new Error("r rejected");
  });
  const end = await startStages([syncStage(log, "a"), rejecting, syncStage(log, "b")], null);
  await expect(Promise.resolve(end("ok"))).rejects.toThrow("r rejected");
  expect(log.filter((l) => l.startsWith("after"))).toEqual(["after b ok", "after a ok"]);
});

/** A recording span that logs what the runner does with it. */
function recordingSpan(log: Log, name: string): TraceSpan {
  return {
    recording: true,
    set: (k, v) => void log.push(`${name} set ${k}=${v}`),
    rename() {},
    child: (child) => {
      log.push(`open ${child}`);
      return recordingSpan(log, child);
    },
    fail: (err) => void log.push(`${name} failed ${(err as { code?: string }).code}`),
    hold: () => () => {},
    end: () => void log.push(`end ${name}`),
    traceparent: () => null,
    tracestate: () => null,
    ids: () => null,
  };
}

test("each stage runs in a child span of the call's, from its before to its after; a stage only adds attributes", async () => {
  const log: Log = [];
  const tagging: Stage<null, string> = {
    name: "tag",
    before(_ctx, span) {
      span.set("gw.tag", 1);
      return (result) => span.set("gw.tagged", result ?? "none");
    },
  };
  const plain: Stage<null, string> = { name: "plain", before: () => null };
  const end = await startStages([tagging, plain], null, recordingSpan(log, "call"));
  expect(log).toEqual(["open gw.tag", "gw.tag set gw.tag=1", "open gw.plain", "end gw.plain"]);
  await end("ok");
  expect(log.slice(4)).toEqual(["gw.tag set gw.tagged=ok", "end gw.tag"]);
});

test("a stage that refuses fails its span with the error's code, and the started ones' spans end with their afters", async () => {
  const log: Log = [];
  const refusing: Stage<null, string> = {
    name: "refuse",
    before() {
      throw Object.assign(new Error("no"), { code: "spend_cap_exceeded" });
    },
  };
  const holding: Stage<null, string> = { name: "hold", before: () => () => {} };
  await expect(startStages([holding, refusing], null, recordingSpan(log, "call"))).rejects.toThrow("no");
  expect(log).toEqual(["open gw.hold", "open gw.refuse", "gw.refuse failed spend_cap_exceeded", "end gw.refuse", "end gw.hold"]);
});

test("befores that answer at once give the end at once; one that waits makes the rest follow it, in order", async () => {
  const log: Log = [];
  const now = startStages([syncStage(log, "a"), syncStage(log, "b")], null);
  expect(now).not.toBeInstanceOf(Promise);
  const waiting: Stage<null, string> = {
    name: "waiting",
    async before() {
      await Bun.sleep(1);
      log.push("before waiting");
      return null;
    },
  };
  const later = startStages([syncStage(log, "c"), waiting, syncStage(log, "d")], null);
  expect(later).toBeInstanceOf(Promise);
  expect(log).toEqual(["before a", "before b", "before c"]);
  const end = await later;
  expect(log.slice(3)).toEqual(["before waiting", "before d"]);
  await end("ok");
  expect(log.slice(5)).toEqual(["after d ok", "after c ok"]);
});

test("a refusal is a rejected promise even when every stage answered at once, given after the started ones' afters ran", async () => {
  const log: Log = [];
  const refusing: Stage<null, string> = {
    name: "refuse",
    before() {
      throw new Error("refused");
    },
  };
  const started = startStages([syncStage(log, "a"), refusing, syncStage(log, "b")], null);
  expect(started).toBeInstanceOf(Promise);
  await expect(started).rejects.toThrow("refused");
  expect(log).toEqual(["before a", "after a none"]);
});
