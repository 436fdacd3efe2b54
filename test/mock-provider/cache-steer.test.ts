/** The mock provider's prompt-cache steer: which end users make it report cache tokens, and how many. */
import { expect, test } from "bun:test";
import { cacheSteer } from "../../src/mock-provider/cache-steer.ts";

test("an end user cache-r<reads>-w<writes>[-h<1-hour>] steers the counts, in chat's user or the messages format's metadata", () => {
  expect(cacheSteer({ user: "cache-r2000-w500" })).toEqual({ read: 2000, write: 500, writeLong: 0 });
  expect(cacheSteer({ metadata: { user_id: "cache-r0-w300-h100" } })).toEqual({ read: 0, write: 300, writeLong: 100 });
  // The 1-hour writes are a part of the writes: never more than them.
  expect(cacheSteer({ user: "cache-r1-w2-h9" })).toEqual({ read: 1, write: 2, writeLong: 2 });
});

test("any other end user, or none, reports no cache", () => {
  for (const body of [
    null,
    {},
    { user: "alice" },
    { user: "cache-r-w1" },
    { user: "xcache-r1-w1" },
    { metadata: { user_id: 5 } },
    { metadata: null },
  ])
    expect(cacheSteer(body as never)).toBeUndefined();
});
