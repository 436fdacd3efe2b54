/**
 * OpenAI's published component schemas (test/fixtures/openai-schemas.json, extracted by
 * make-openai-schemas.ts) compiled with ajv, and checks that name what does not conform:
 * a whole object against one schema, and a stream's chat chunks or Responses events
 * each against the schema of its kind.
 */
import { expect } from "bun:test";
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import fixture from "../fixtures/openai-schemas.json";
import { sseEvents } from "./sse-text.ts";

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
// The description's own formats: `unixtime` seconds, and `float` on numbers.
ajv.addFormat("unixtime", { type: "number", validate: (n: number) => Number.isInteger(n) && n >= 0 });
ajv.addFormat("float", { type: "number", validate: (n: number) => Number.isFinite(n) });
ajv.addSchema({ $id: "openai", $defs: fixture.$defs });

type Defs = Record<string, { anyOf?: { $ref?: string }[]; properties?: { type?: { enum?: string[] } } }>;
const defs = fixture.$defs as unknown as Defs;

const compiled = new Map<string, ValidateFunction>();

function validator(name: string): ValidateFunction {
  let v = compiled.get(name);
  if (!v) {
    v = ajv.getSchema(`openai#/$defs/${name}`);
    if (!v) throw new Error(`no schema ${name} in the fixture`);
    compiled.set(name, v);
  }
  return v;
}

/** What `value` breaks of the named schema ([] when it conforms). */
export function violations(name: string, value: unknown): string[] {
  const v = validator(name);
  if (v(value)) return [];
  return (v.errors ?? []).map((e) => `${name}${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
}

/** Fails the test with every violation named, and the object. */
export function expectConforms(name: string, value: unknown): void {
  const found = violations(name, value);
  if (found.length > 0) throw new Error(`${found.slice(0, 8).join("\n")}\nin ${JSON.stringify(value).slice(0, 1500)}`);
  expect(found).toEqual([]);
}

/** Each streaming event type of the Responses API and the schema that describes it. */
const RESPONSES_EVENTS = new Map<string, string>(
  (defs.ResponseStreamEvent?.anyOf ?? []).flatMap((branch) => {
    const name = branch.$ref?.replace("#/$defs/", "") ?? "";
    const type = defs[name]?.properties?.type?.enum?.[0];
    return type ? [[type, name] as [string, string]] : [];
  }),
);

/** Every chunk of a chat-completions stream conforms (an error object as an error response); returns the chunks. */
export function expectChatStreamConforms(text: string): any[] {
  const events = sseEvents(text);
  expect(events.at(-1)?.data).toBe("[DONE]");
  const chunks = events.filter((e) => e.data !== "[DONE]").map((e) => JSON.parse(e.data));
  for (const c of chunks) expectConforms(c.error ? "ErrorResponse" : "CreateChatCompletionStreamResponse", c);
  return chunks;
}

/** Every event of a Responses stream conforms to its type's schema, numbered 0, 1, 2, ...; returns the events. */
export function expectResponsesStreamConforms(text: string): any[] {
  const events = sseEvents(text).map((e) => ({ name: e.event, body: JSON.parse(e.data) }));
  events.forEach(({ name, body }, i) => {
    expect(name).toBe(body.type);
    const schema = RESPONSES_EVENTS.get(body.type);
    if (!schema) throw new Error(`${body.type} is not a Responses streaming event`);
    expectConforms(schema, body);
    expect(body.sequence_number).toBe(i);
  });
  return events.map((e) => e.body);
}
