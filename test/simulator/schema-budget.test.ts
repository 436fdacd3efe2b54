/**
 * A caller's schema cannot make the simulator work without bound. The probes that found
 * it: `minLength: 50000000`, `minItems: 50000000`, a pattern `((a{1000}){1000}){1000}`
 * and three levels of 100-item arrays under 20 members each held the process (synchronous
 * generation) for more than 20 s and up to 1.9 GB, and `a{100000000}` answered a 100 MB
 * string; a long request text was read again for every string value generated.
 */
import { describe, expect, test } from "bun:test";
import Ajv2020 from "ajv/dist/2020";
import { valueFor } from "../../src/simulator/json-values.ts";
import {
  BudgetExceeded,
  boundedSchema,
  MAX_CHARS,
  MAX_ITEMS,
  MAX_STRING,
  MAX_VALUES,
  patternLengthBound,
  valueBudget,
} from "../../src/simulator/schema-budget.ts";

const size = (v: unknown) => JSON.stringify(v).length;

describe("patternLengthBound", () => {
  test("counts what json-schema-faker can generate: quantifiers multiply through groups", () => {
    expect(patternLengthBound("abc")).toBe(3);
    expect(patternLengthBound("a{10}")).toBe(10);
    expect(patternLengthBound("[a-z]{2,8}")).toBe(8);
    expect(patternLengthBound("\\d{3}-\\d{4}")).toBe(8);
    expect(patternLengthBound("a+")).toBe(5);
    expect(patternLengthBound("(ab){3}")).toBe(6);
    expect(patternLengthBound("((a{10}){10}){10}")).toBe(1000);
    expect(patternLengthBound("x{4,}")).toBe(9);
    expect(patternLengthBound("^(cat|dog)s?$")).toBe(7);
  });

  test("nested and huge quantifiers give a bound past the limit", () => {
    expect(patternLengthBound("((a{1000}){1000}){1000}")).toBe(1e9);
    expect(patternLengthBound("a{100000000}")).toBe(1e8);
    expect(patternLengthBound("((((((((((a+)+)+)+)+)+)+)+)+)+)+")).toBeGreaterThan(MAX_STRING);
  });
});

describe("boundedSchema", () => {
  test("counts are clamped wherever a schema sits, data members are left alone", () => {
    const hostile = {
      type: "object",
      properties: {
        // Members named like keywords are still schemas.
        enum: { type: "string", minLength: 5e7, maxLength: 1e9 },
        list: { type: "array", minItems: 1e9, maxItems: 1e9, items: { type: "string", minLength: 3 } },
      },
      $defs: { d: { type: "object", minProperties: 1e6 } },
      anyOf: [{ minContains: 1e6 }],
      const: { minLength: 1e9 },
      required: ["enum"],
    };
    const b = boundedSchema(hostile) as any;
    expect(b.properties.enum.minLength).toBe(MAX_STRING);
    expect(b.properties.enum.maxLength).toBe(MAX_STRING);
    expect(b.properties.list.minItems).toBe(MAX_ITEMS);
    expect(b.properties.list.items.minLength).toBe(3);
    expect(b.$defs.d.minProperties).toBe(MAX_ITEMS);
    expect(b.anyOf[0].minContains).toBe(MAX_ITEMS);
    expect(b.const).toEqual({ minLength: 1e9 });
    expect(b.required).toEqual(["enum"]);
    expect(hostile.properties.enum.minLength).toBe(5e7);
  });

  test("a pattern that could generate more than the longest string is left out; an ordinary one stays", () => {
    const b = boundedSchema({
      properties: { big: { type: "string", pattern: "((a{1000}){1000}){1000}" }, zip: { type: "string", pattern: "^\\d{5}$" } },
      patternProperties: { "^(a+)+$": { type: "string" } },
    }) as any;
    expect(b.properties.big.pattern).toBeUndefined();
    expect(b.properties.zip.pattern).toBe("^\\d{5}$");
    expect(b.patternProperties).toBeUndefined();
  });

  test("a shared or looping part (a schema built in code) is copied once", () => {
    let shared: any = { type: "string" };
    for (let i = 0; i < 100; i++) shared = { anyOf: [shared, shared] };
    const loop: any = { type: "object", properties: {} };
    loop.properties.self = loop;
    const b = boundedSchema(loop) as any;
    expect(b.properties.self === b).toBe(true);
    const s = boundedSchema(shared) as any;
    expect(s.anyOf[0] === s.anyOf[1]).toBe(true);
  });
});

describe("valueBudget", () => {
  test("stops past the values or characters allowed", () => {
    const spend = valueBudget();
    for (let i = 0; i < MAX_VALUES; i++) spend(1);
    expect(() => spend(1)).toThrow(BudgetExceeded);
    const chars = valueBudget();
    chars("x".repeat(MAX_CHARS));
    expect(() => chars("x")).toThrow(BudgetExceeded);
  });
});

describe("valueFor with a hostile schema", () => {
  test("a huge minLength gives a string of the longest allowed length", () => {
    const v = valueFor({ type: "object", properties: { s: { type: "string", minLength: 5e7 } }, required: ["s"] }, 1, "hi") as any;
    expect(v.s.length).toBe(MAX_STRING);
    expect(valueFor({ type: "string", minLength: 5e7 }, 1, "hi") as string).toHaveLength(MAX_STRING);
  });

  test("a huge minItems gives at most MAX_ITEMS items", () => {
    const v = valueFor({ type: "array", items: { type: "integer" }, minItems: 5e7 }, 1, "hi") as unknown[];
    expect(v.length).toBeLessThanOrEqual(MAX_ITEMS);
  });

  test("patterns that would expand to gigabytes are not followed", () => {
    for (const pattern of ["a{100000000}", "((a{1000}){1000}){1000}", "((((((((((a+)+)+)+)+)+)+)+)+)+)+"]) {
      const v = valueFor({ type: "string", pattern }, 1, "hi");
      expect(typeof v).toBe("string");
      expect((v as string).length).toBeLessThanOrEqual(MAX_STRING);
    }
  });

  test("arrays nested under many members stop at the budget instead of multiplying", () => {
    const deep = {
      type: "array",
      minItems: 100,
      items: { type: "array", minItems: 100, items: { type: "array", minItems: 100, items: { type: "string" } } },
    };
    const schema = { type: "object", properties: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`p${i}`, deep])) };
    expect(size(valueFor(schema, 1, "hi"))).toBeLessThanOrEqual(MAX_CHARS);
    const invalid = {
      type: "array",
      minItems: 1e6,
      items: { type: "array", minItems: 1e6, items: { type: "array", minItems: 1e6, items: { type: "bogus" } } },
    };
    expect((valueFor(invalid, 1, "hi") as unknown[]).length).toBeLessThanOrEqual(MAX_ITEMS);
  });

  test("a long request text is drawn from, not copied into every value", () => {
    const text = `Find ${"flights to Lisbon ".repeat(200_000)}`;
    const schema = { type: "object", properties: { queries: { type: "array", minItems: 40, items: { type: "string" } } } };
    const v = valueFor(schema, 1, text) as { queries: string[] };
    expect(v.queries.length).toBeGreaterThan(0);
    for (const q of v.queries) expect(q.length).toBeLessThanOrEqual(MAX_STRING);
  });

  test("an ordinary schema still gets a valid answer", () => {
    const schema = {
      type: "object",
      properties: {
        city: { type: "string" },
        zip: { type: "string", pattern: "^\\d{5}$" },
        tags: { type: "array", items: { type: "string" }, minItems: 2, maxItems: 4 },
      },
      required: ["city", "zip", "tags"],
      additionalProperties: false,
    };
    const v = valueFor(schema, 3, "Weather in Lisbon");
    expect(new Ajv2020({ strict: false }).validate(schema, v)).toBe(true);
  });
});
