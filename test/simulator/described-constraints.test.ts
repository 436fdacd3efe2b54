/**
 * Bounds a client moved into descriptions (as the AI SDK's Anthropic provider and the
 * Anthropic SDKs do for messages-format structured output) are read back, so the
 * simulator's JSON answer still keeps them.
 */
import { describe, expect, test } from "bun:test";
import Ajv2020 from "ajv/dist/2020";
import { withDescribedConstraints } from "../../src/simulator/described-constraints.ts";
import { valueFor } from "../../src/simulator/json-values.ts";

describe("constraints written in descriptions", () => {
  test("the AI SDK's form and the Anthropic SDKs' form become schema keywords", () => {
    const schema = {
      type: "object",
      properties: {
        age: { type: "integer", description: "minimum: 18; maximum: 99." },
        score: { type: "number", description: "a score\n\n{exclusiveMinimum: 0, multipleOf: 0.5}" },
        tags: { type: "array", items: { type: "string" }, description: "min items: 2; max items: 3; unique items: true." },
        code: { type: "string", description: "{minLength: 4, maxLength: 6}" },
      },
    };
    expect(withDescribedConstraints(schema)).toMatchObject({
      properties: {
        age: { minimum: 18, maximum: 99 },
        score: { exclusiveMinimum: 0, multipleOf: 0.5 },
        tags: { minItems: 2, maxItems: 3, uniqueItems: true },
        code: { minLength: 4, maxLength: 6 },
      },
    });
    // "exclusive minimum" is not read as "minimum" too.
    expect((withDescribedConstraints(schema) as any).properties.score.minimum).toBeUndefined();
    // The caller's schema is left as it was.
    expect(schema.properties.age).toEqual({ type: "integer", description: "minimum: 18; maximum: 99." });
  });

  test("a keyword the schema states itself wins over the description", () => {
    const schema = { type: "integer", minimum: 5, description: "minimum: 18; maximum: 20." };
    expect(withDescribedConstraints(schema)).toMatchObject({ minimum: 5, maximum: 20 });
  });

  test("descriptions without bounds change nothing", () => {
    const schema = { type: "object", properties: { note: { type: "string", description: "the maximum you can say, minimum effort" } } };
    expect(withDescribedConstraints(schema)).toEqual(schema);
  });

  test("generated answers keep the described bounds, for many seeds", () => {
    const sent = {
      type: "object",
      properties: {
        age: { type: "integer", description: "minimum: 18; maximum: 99." },
        tags: { type: "array", items: { type: "string", enum: ["a", "b", "c"] }, description: "min items: 1; max items: 2." },
      },
      required: ["age", "tags"],
      additionalProperties: false,
    };
    const meant = {
      ...sent,
      properties: { age: { type: "integer", minimum: 18, maximum: 99 }, tags: { ...sent.properties.tags, minItems: 1, maxItems: 2 } },
    };
    const validate = new Ajv2020({ strict: false }).compile(meant);
    for (let seed = 1; seed <= 50; seed++) {
      const value = valueFor(sent, seed, "Describe a customer");
      expect({ seed, ok: validate(value), errors: validate.errors }).toEqual({ seed, ok: true, errors: null });
    }
  });
});
