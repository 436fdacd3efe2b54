import { describe, expect, test } from "bun:test";
import { ApiError } from "../../src/lib/errors.ts";
import { MAX_JSON_DEPTH, nestedDeeperThan, readJsonObject } from "../../src/lib/json-body.ts";

const req = (body: RequestInit["body"], headers: Record<string, string> = {}) =>
  new Request("http://x/", { method: "POST", body, headers });

async function failure(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (err) {
    return err as ApiError;
  }
  throw new Error("expected a failure");
}

describe("readJsonObject", () => {
  test("parses an object", async () => {
    expect(await readJsonObject(req('{"a":1}'), 100)).toEqual({ a: 1 });
  });

  test("empty, malformed and non-object bodies are 400s that say so", async () => {
    expect((await failure(readJsonObject(req(""), 100))).message).toContain("empty");
    const bad = await failure(readJsonObject(req("{bad"), 100));
    expect(bad.status).toBe(400);
    expect(bad.message).toContain("not valid JSON");
    expect((await failure(readJsonObject(req("[1,2]"), 100))).message).toContain("must be a JSON object");
    expect((await failure(readJsonObject(req("42"), 100))).message).toContain("must be a JSON object");
  });

  test("bodies over the limit are 413, by declared length and by bytes read", async () => {
    expect((await failure(readJsonObject(req("x".repeat(200)), 100))).status).toBe(413);
    const stream = new ReadableStream({
      start(c) {
        for (let i = 0; i < 10; i++) c.enqueue(new TextEncoder().encode("x".repeat(50)));
        c.close();
      },
    });
    expect((await failure(readJsonObject(req(stream), 100))).status).toBe(413);
  });
});

describe("nestedDeeperThan", () => {
  test("counts arrays and objects, not brackets inside strings or escaped quotes", () => {
    expect(nestedDeeperThan(`${"[".repeat(3)}${"]".repeat(3)}`, 3)).toBe(false);
    expect(nestedDeeperThan(`${"[".repeat(4)}${"]".repeat(4)}`, 3)).toBe(true);
    expect(nestedDeeperThan(`{"a":{"b":[{}]}}`, 3)).toBe(true);
    expect(nestedDeeperThan(`{"a":"[[[[[[\\"[[[[","b":[1]}`, 3)).toBe(false);
    // Siblings do not add up: depth, not count.
    expect(nestedDeeperThan(`[${"[],".repeat(50)}[]]`, 3)).toBe(false);
  });

  test("a body deeper than the limit is a 400 before it is parsed", async () => {
    const err = await failure(readJsonObject(req(`{"a":${"[".repeat(MAX_JSON_DEPTH + 1)}${"]".repeat(MAX_JSON_DEPTH + 1)}}`), 10_000_000));
    expect(err.status).toBe(400);
    expect(err.message).toContain(`deeper than ${MAX_JSON_DEPTH}`);
  });
});
