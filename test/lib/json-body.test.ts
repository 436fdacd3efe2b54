import { describe, expect, test } from "bun:test";
import { ApiError } from "../../src/lib/errors.ts";
import { readJsonObject } from "../../src/lib/json-body.ts";

const req = (body: RequestInit["body"], headers: Record<string, string> = {}) => new Request("http://x/", { method: "POST", body, headers });

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
