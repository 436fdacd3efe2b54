/**
 * The tools, prompts and answer schema every framework file uses, written once as JSON
 * Schema and zod so that each library gets them through its own API, and the checks of
 * what comes back.
 */
import { expect } from "bun:test";
import { z } from "zod";

/** The simulator calls the tool whose words match the message, with arguments from its schema. */
export const PROMPTS = {
  plain: "Say hello to the team.",
  /** One tool turn: get_weather with the city the message names, then text that uses its result. */
  oneTool: "What is the weather in Paris?",
  /** Two asks in one message: two calls in one turn, when the request allows parallel calls. */
  parallel: "What is the weather in Paris and Tokyo?",
  /** Two tool turns in order (an ask in steps), then text. */
  twoSteps: "Search the docs for refunds, then get the weather in Oslo.",
  structured: "Describe a customer profile for the CRM.",
  embed: "a document to embed",
} as const;

export const WEATHER_RESULT = "sunny, 24 C";
export const DOCS_RESULT = "refunds take 5 days";

export const weatherArgs = z.object({ city: z.string().describe("the city to report on") });
export const docsArgs = z.object({ query: z.string().describe("what to search the documentation for") });

export const TOOL_TEXT = {
  get_weather: "Get the current weather in a city",
  search_docs: "Search the documentation",
} as const;

/** Plain JSON Schema forms, for the libraries that take them as they are. */
export const weatherJsonSchema = {
  type: "object",
  properties: { city: { type: "string", description: "the city to report on" } },
  required: ["city"],
  additionalProperties: false,
} as const;
export const docsJsonSchema = {
  type: "object",
  properties: { query: { type: "string", description: "what to search the documentation for" } },
  required: ["query"],
  additionalProperties: false,
} as const;

/** The structured answer asked for: nested objects, an array of enums, an integer, a format. */
export const profileSchema = z.object({
  name: z.string(),
  age: z.number().int().min(18).max(99),
  email: z.string().email(),
  plan: z.enum(["free", "team", "enterprise"]),
  tags: z.array(z.enum(["new", "vip", "churn-risk"])),
  address: z.object({ city: z.string(), country: z.string() }),
});
export type Profile = z.infer<typeof profileSchema>;

/** A structured answer is right when it parses against the schema asked for. */
export function expectProfile(value: unknown): Profile {
  const parsed = profileSchema.safeParse(value);
  if (!parsed.success) throw new Error(`the answer does not match the schema: ${parsed.error.message}\n${JSON.stringify(value)}`);
  return parsed.data;
}

/** Every step of a tool loop, as the test saw the tools run. */
export class ToolLog {
  calls: { name: string; args: Record<string, unknown> }[] = [];
  weather = (args: { city: string }): string => {
    this.calls.push({ name: "get_weather", args });
    return WEATHER_RESULT;
  };
  docs = (args: { query: string }): string => {
    this.calls.push({ name: "search_docs", args });
    return DOCS_RESULT;
  };
  /** One round trip: the weather tool ran once, for the city the prompt names. */
  expectOneTrip(finalText: string): void {
    expect(this.calls).toEqual([{ name: "get_weather", args: { city: "Paris" } }]);
    expect(finalText).toContain(WEATHER_RESULT);
  }
  /** Both cities' weather asked in one turn (the log cannot tell turns apart; the caller checks the turn count). */
  expectParallel(finalText: string): void {
    expect(this.calls).toEqual([
      { name: "get_weather", args: { city: "Paris" } },
      { name: "get_weather", args: { city: "Tokyo" } },
    ]);
    expect(finalText).toContain(WEATHER_RESULT);
  }
  /** Two steps in order, each tool once, then text that uses the last result. */
  expectTwoSteps(finalText: string): void {
    expect(this.calls.map((c) => c.name)).toEqual(["search_docs", "get_weather"]);
    expect(this.calls[1]?.args).toEqual({ city: "Oslo" });
    expect(typeof this.calls[0]?.args.query).toBe("string");
    expect(finalText.length).toBeGreaterThan(0);
  }
}
