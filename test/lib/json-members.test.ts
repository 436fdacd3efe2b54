import { describe, expect, test } from "bun:test";
import { jsonObjectMembers } from "../../src/lib/json-members.ts";

/** A small deterministic generator, so a failure names a case that can be run again. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Strings that trip a careless walker: quotes, backslashes, brackets and braces inside. */
const TRICKY = [
  'a "quoted" word',
  "back\\slash\\",
  "\\",
  '\\"',
  "[not an array]",
  "{not: an object}",
  "ends with \\\\",
  "ünïcödé ✓ 🎉",
  "",
  "\u0000\u001f",
];

function value(rnd: () => number, depth: number): unknown {
  const r = rnd();
  if (depth > 3 || r < 0.35) {
    const pick = Math.floor(rnd() * 6);
    if (pick === 0) return TRICKY[Math.floor(rnd() * TRICKY.length)];
    if (pick === 1) return (rnd() - 0.5) * 10 ** Math.floor(rnd() * 8);
    if (pick === 2) return Math.floor(rnd() * 1000);
    if (pick === 3) return rnd() < 0.5;
    if (pick === 4) return null;
    return `s${Math.floor(rnd() * 100)}`;
  }
  if (r < 0.65) return Array.from({ length: Math.floor(rnd() * 5) }, () => value(rnd, depth + 1));
  return object(rnd, depth + 1);
}

function object(rnd: () => number, depth: number): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  const keys = ["model", "usage", "data", 'we"ird', "back\\", "[x]", "id"];
  for (let k = Math.floor(rnd() * 6); k > 0; k--) o[keys[Math.floor(rnd() * keys.length)] as string] = value(rnd, depth);
  return o;
}

describe("jsonObjectMembers", () => {
  test("reads the named members as JSON.parse does, over many generated objects, compact and indented", () => {
    for (let seed = 1; seed <= 500; seed++) {
      const rnd = random(seed);
      const o = object(rnd, 0);
      const names = ["model", "usage", 'we"ird', "back\\", "[x]"];
      for (const text of [JSON.stringify(o), JSON.stringify(o, null, seed % 4), ` \n${JSON.stringify(o, null, "\t")}\r\n `]) {
        const expected = Object.fromEntries(names.filter((k) => k in o).map((k) => [k, o[k]]));
        expect({ seed, members: jsonObjectMembers(text, names) }).toEqual({ seed, members: expected });
      }
    }
  });

  test("an embeddings answer: model and usage, the vectors skipped", () => {
    const answer = {
      object: "list",
      data: [{ object: "embedding", index: 0, embedding: Array.from({ length: 1536 }, (_, i) => Math.sin(i) / 7) }],
      model: "text-embedding-3-small",
      usage: { prompt_tokens: 125, total_tokens: 125 },
    };
    expect(jsonObjectMembers(JSON.stringify(answer), ["model", "usage"])).toEqual({
      model: "text-embedding-3-small",
      usage: { prompt_tokens: 125, total_tokens: 125 },
    });
  });

  test("a repeated key keeps its last value, as JSON.parse does", () => {
    expect(jsonObjectMembers('{"model":"a","model":"b"}', ["model"])).toEqual({ model: "b" });
  });

  test("keys written with escapes are compared as the strings they stand for", () => {
    expect(jsonObjectMembers('{"mod\\u0065l":"m","\\"q\\"":1}', ["model", '"q"'])).toEqual({ model: "m", '"q"': 1 });
  });

  test("an empty object has no members", () => {
    expect(jsonObjectMembers(" { } ", ["model"])).toEqual({});
  });

  test("anything that is not one JSON object is null", () => {
    for (const text of [
      "",
      "null",
      "[]",
      '"text"',
      "42",
      "<html>Bad gateway</html>",
      '{"model":"m"',
      '{"model":"m"} trailing',
      '{"model":"m"}{}',
      '{"model" "m"}',
      '{model:"m"}',
      '{"model":"m",}',
      '{"model":}',
      '{"data":[1,2,{"a":"}"]',
      '{"data":"never closed}',
      '{"model":"m" "usage":{}}',
    ]) {
      expect({ text, members: jsonObjectMembers(text, ["model", "usage", "data"]) }).toEqual({ text, members: null });
    }
  });

  test("a member asked for that is not valid JSON makes the whole answer null", () => {
    expect(jsonObjectMembers('{"usage":{"prompt_tokens":01}}', ["usage"])).toBeNull();
    expect(jsonObjectMembers('{"model":tru}', ["model"])).toBeNull();
  });

  test("a member not asked for is skipped by its brackets, unchecked inside", () => {
    expect(jsonObjectMembers('{"data":[1,,2],"model":"m"}', ["model"])).toEqual({ model: "m" });
  });
});
