/**
 * Structured output: for 240 generated schemas (nested objects and arrays, enums,
 * required members, anyOf, nullable types, formats, length and range bounds, $defs
 * references, draft-07 `definitions` as zod converters write them), the simulator's
 * JSON answer, asked in each format's own way (chat `response_format`, Responses
 * `text.format`, messages `output_config.format`), validates against the schema (ajv)
 * and is the same for the same request.
 */
import { describe, expect, test } from "bun:test";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { simulateChat } from "../../src/simulator/chat-simulator.ts";
import { simulatedMessage } from "../../src/simulator/messages-format.ts";
import { ResponsesMemory, simulatedResponses } from "../../src/simulator/responses-format.ts";
import { valueFor } from "../../src/simulator/json-values.ts";

type Schema = Record<string, unknown>;

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);

/** A seeded generator of schemas, deterministic so a failure names a schema that can be rerun. */
function schemas(count: number, seed: number): Schema[] {
  let s = seed;
  const rand = () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s / 4294967296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[int(0, xs.length - 1)] as T;
  const NAMES = [
    "city",
    "name",
    "email",
    "id",
    "query",
    "summary",
    "count",
    "price",
    "tags",
    "unit",
    "status",
    "items",
    "date",
    "url",
    "note",
  ];

  const leaf = (): Schema => {
    switch (int(0, 8)) {
      case 0:
        return { type: "string" };
      case 1:
        return { type: "string", minLength: int(0, 5), maxLength: int(6, 40) };
      case 2:
        return { type: "string", format: pick(["date-time", "email", "uri", "uuid", "date"]) };
      case 3:
        return { type: "integer", minimum: int(-10, 10), maximum: int(11, 1000) };
      case 4:
        return { type: "number", minimum: 0, maximum: int(1, 100) };
      case 5:
        return { type: "boolean" };
      case 6:
        return { type: "string", enum: ["low", "medium", "high"].slice(0, int(1, 3)) };
      case 7:
        return { enum: [1, 2, 3, "other"] };
      default:
        return { type: [pick(["string", "integer", "boolean"]), "null"] };
    }
  };

  const node = (depth: number, defs: Schema): Schema => {
    const r = depth <= 0 ? 0 : int(0, 9);
    if (r <= 4) return leaf();
    if (r === 5) return { type: "array", items: node(depth - 1, defs), minItems: int(0, 2), maxItems: int(2, 4) };
    if (r === 6) return { anyOf: [node(depth - 1, defs), node(depth - 1, defs), ...(rand() < 0.5 ? [{ type: "null" }] : [])] };
    if (r === 7 && Object.keys(defs).length > 0) return { $ref: `#/$defs/${pick(Object.keys(defs))}` };
    return object(depth - 1, defs);
  };

  const object = (depth: number, defs: Schema): Schema => {
    const names = [...new Set(Array.from({ length: int(1, 5) }, () => pick(NAMES)))];
    const properties = Object.fromEntries(names.map((n) => [n, node(depth, defs)]));
    const strict = rand() < 0.5;
    return {
      type: "object",
      properties,
      required: strict ? names : names.filter(() => rand() < 0.5),
      ...(strict ? { additionalProperties: false } : {}),
    };
  };

  return Array.from({ length: count }, (_, i) => {
    const defs: Schema = {};
    if (i % 3 === 0) defs.Item = object(1, {});
    const root = object(3, defs);
    if (Object.keys(defs).length === 0) return root;
    // Every third a `$defs` schema (zod 4, the AI SDK); every sixth as draft-07 `definitions` (zod-to-json-schema).
    if (i % 6 !== 0) return { $schema: "https://json-schema.org/draft/2020-12/schema", ...root, $defs: defs };
    return JSON.parse(JSON.stringify({ ...root, definitions: defs }).replaceAll("#/$defs/", "#/definitions/"));
  });
}

const SCHEMAS = schemas(240, 20261127);
const ASK = "Give me the details for Paris, please";

/** The schema as ajv 2020 reads it (a draft-07 `$schema` is dropped; `definitions` resolve the same). */
const check = (schema: Schema) => ajv.compile({ ...schema, $schema: undefined });

async function answerIn(format: number, schema: Schema): Promise<string> {
  if (format === 0)
    return simulateChat({
      model: "gpt-4o",
      messages: [{ role: "user", content: ASK }],
      response_format: { type: "json_schema", json_schema: { name: "answer", schema } },
    }).text;
  if (format === 1) {
    const m = simulatedMessage({
      model: "claude-haiku-4-5",
      max_tokens: 1024,
      messages: [{ role: "user", content: ASK }],
      output_config: { format: { type: "json_schema", schema } },
    });
    return (m.content as { text: string }[])[0]!.text;
  }
  const r: any = await (
    await simulatedResponses(
      { model: "gpt-4o", input: ASK, store: false, text: { format: { type: "json_schema", name: "answer", schema } } },
      {},
      new ResponsesMemory(),
      "org_test",
    )
  ).json();
  return r.output[0].content[0].text;
}

describe("structured output", () => {
  test(`${SCHEMAS.length} generated schemas: each answer validates, in each format's own request form`, async () => {
    const failures: string[] = [];
    for (const [i, schema] of SCHEMAS.entries()) {
      const validate = check(schema);
      const text = await answerIn(i % 3, schema);
      if (!validate(JSON.parse(text)))
        failures.push(`#${i}: ${ajv.errorsText(validate.errors)}\n  schema ${JSON.stringify(schema)}\n  answer ${text}`);
    }
    expect(failures.slice(0, 5)).toEqual([]);
  });

  test("the same request gets the same JSON; another ask other values", async () => {
    const schema = SCHEMAS[1]!;
    expect(await answerIn(0, schema)).toBe(await answerIn(0, schema));
    const other = simulateChat({
      model: "gpt-4o",
      messages: [{ role: "user", content: "Something else entirely" }],
      response_format: { type: "json_schema", json_schema: { name: "answer", schema } },
    }).text;
    expect(other).not.toBe(await answerIn(0, schema));
  });

  test("free-text strings are plausible: the place the ask names, a query that is the ask", () => {
    const schema = {
      type: "object",
      properties: { city: { type: "string" }, query: { type: "string" }, when: { type: "string", format: "date" } },
      required: ["city", "query", "when"],
      additionalProperties: false,
    };
    const value = valueFor(schema, 7, "Weather in Lisbon tomorrow") as Record<string, string>;
    expect(value.city).toBe("Lisbon");
    expect(value.query).toBe("Weather in Lisbon tomorrow");
    expect(value.when).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  test("JSON mode answers a JSON object", () => {
    const a = simulateChat({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }], response_format: { type: "json_object" } });
    expect(typeof JSON.parse(a.text)).toBe("object");
  });

  test("a sentence's first word is not taken for a place when the message names one", () => {
    const schema = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };
    expect(valueFor(schema, 3, "Weather in Paris?")).toEqual({ city: "Paris" });
    expect(valueFor(schema, 3, "Lisbon: is it sunny?")).toEqual({ city: "Lisbon" });
  });

  test("open numbers are plausible for their member; bounded ones keep the schema's range", () => {
    const schema = {
      type: "object",
      properties: {
        age: { type: "integer" },
        year: { type: "integer" },
        price: { type: "number" },
        count: { type: "integer" },
        level: { type: "integer", minimum: 1000, maximum: 2000 },
      },
      required: ["age", "year", "price", "count", "level"],
    };
    for (let seed = 1; seed <= 40; seed++) {
      const v = valueFor(schema, seed, "A customer") as Record<string, number>;
      expect(Number.isInteger(v.age) && v.age! >= 18 && v.age! <= 80).toBe(true);
      expect(Number.isInteger(v.year) && v.year! >= 1990 && v.year! <= 2026).toBe(true);
      expect(v.price! > 0 && v.price! < 1000).toBe(true);
      expect(Number.isInteger(v.count) && v.count! >= 1 && v.count! <= 100).toBe(true);
      expect(v.level! >= 1000 && v.level! <= 2000).toBe(true);
    }
  });
});
