/** The per-attempt stage list: afters of started stages run in reverse, once, whatever happens. */
import { expect, test } from "bun:test";
import { ApiError } from "../../src/lib/errors.ts";
import { type AttemptContext, type AttemptStage, startAttempt } from "../../src/pipeline/attempt-stages.ts";

const ctx = {} as AttemptContext;

function recording(log: string[], name: string, refuse = false): AttemptStage {
  return {
    name,
    before() {
      log.push(`before ${name}`);
      if (refuse) throw new ApiError(429, "rate_limit_exceeded", `${name} refused`);
      return (end) => {
        log.push(`after ${name} ${end ? end.costMicros : "none"}`);
      };
    },
  };
}

test("afters run in reverse order, once, with the attempt's end", async () => {
  const log: string[] = [];
  const end = await startAttempt([recording(log, "a"), recording(log, "b")], ctx);
  end({ costMicros: 7, tokens: 3 });
  end(null);
  expect(log).toEqual(["before a", "before b", "after b 7", "after a 7"]);
});

test("a stage that refuses stops the list; the stages that started give back what they took", async () => {
  const log: string[] = [];
  const err = await Promise.resolve(startAttempt([recording(log, "a"), recording(log, "b", true), recording(log, "c")], ctx)).catch(
    (e) => e,
  );
  expect(err.code).toBe("rate_limit_exceeded");
  expect(log).toEqual(["before a", "before b", "after a none"]);
});

test("a stage with nothing to give back returns no after", async () => {
  const log: string[] = [];
  const quiet: AttemptStage = { name: "quiet", before: () => null };
  const end = await startAttempt([quiet, recording(log, "a")], ctx);
  end(null);
  expect(log).toEqual(["before a", "after a none"]);
});
