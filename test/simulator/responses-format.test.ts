/**
 * The simulator's memory of stored responses is bounded by what it holds, not only by
 * how many: a thousand conversations of the largest body size (32 MiB by default), or
 * chains of them each repeating the one before, were all kept in memory.
 */
import { describe, expect, test } from "bun:test";
import { ResponsesMemory, simulatedResponses } from "../../src/simulator/responses-format.ts";

const conversation = (word: string, chars: number) => [{ role: "user", content: word.repeat(Math.ceil(chars / word.length)) }];

describe("ResponsesMemory", () => {
  test("keeps conversations within its size, forgetting the oldest first", () => {
    const memory = new ResponsesMemory(10_000);
    for (let i = 0; i < 10; i++) memory.keep("org_a", `resp_${i}`, conversation(`w${i} `, 2_000));
    // 2,000-odd characters each: the last four fit in 10,000, the older ones are gone.
    expect(memory.get("org_a", "resp_9")).toEqual(conversation("w9 ", 2_000));
    expect(memory.get("org_a", "resp_6")).toBeDefined();
    expect(memory.get("org_a", "resp_0")).toBeUndefined();
    expect(memory.get("org_a", "resp_5")).toBeUndefined();
  });

  test("a conversation larger than the whole budget is not kept, and forgets nothing", () => {
    const memory = new ResponsesMemory(10_000);
    memory.keep("org_a", "resp_small", conversation("a ", 100));
    memory.keep("org_a", "resp_huge", conversation("b ", 20_000));
    expect(memory.get("org_a", "resp_huge")).toBeUndefined();
    expect(memory.get("org_a", "resp_small")).toBeDefined();
  });

  test("what is read back is a copy: a later call cannot change a stored conversation", () => {
    const memory = new ResponsesMemory();
    memory.keep("org_a", "resp_1", conversation("x", 3));
    (memory.get("org_a", "resp_1") as { content: string }[])[0]!.content = "changed";
    expect(memory.get("org_a", "resp_1")).toEqual(conversation("x", 3));
    expect(memory.get("org_b", "resp_1")).toBeUndefined();
  });

  test("a chain whose conversation outgrows the budget ends in 404, as an unknown id does", async () => {
    const memory = new ResponsesMemory(20_000);
    let previous: string | undefined;
    let status = 200;
    for (let i = 0; i < 10 && status === 200; i++) {
      const res = await simulatedResponses(
        { model: "gpt-4o", input: "long ".repeat(1_000), ...(previous ? { previous_response_id: previous } : {}) },
        {},
        memory,
        "org_a",
      );
      status = res.status;
      if (res.ok) previous = ((await res.json()) as { id: string }).id;
    }
    expect(status).toBe(404);
  });
});
