/** Validation errors in words: the field, and what it accepts with its range, for every kind of schema. */
import { expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import { ApiError } from "../../src/lib/errors.ts";
import { compileValidator } from "../../src/lib/validator.ts";
import { chatCompletionRequest } from "../../src/schemas/chat-completions.ts";
import { messagesRequest } from "../../src/schemas/messages.ts";

function failure(parse: () => unknown): { message: string; param: string | null } {
  try {
    parse();
  } catch (err) {
    if (err instanceof ApiError) {
      expect(err.status).toBe(400);
      return { message: err.message, param: err.param };
    }
    throw err;
  }
  throw new Error("accepted");
}

const schema = Type.Object(
  {
    keyId: Type.String({ minLength: 1, maxLength: 64 }),
    count: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    ratio: Type.Optional(Type.Number({ minimum: 0 })),
    mode: Type.Optional(Type.Union([Type.Literal("fast"), Type.Literal("slow"), Type.Null()])),
    flag: Type.Optional(Type.Boolean()),
    tags: Type.Optional(Type.Array(Type.String(), { maxItems: 3 })),
    nested: Type.Optional(Type.Object({ when: Type.String({ pattern: "^\\d+$" }) })),
  },
  { additionalProperties: false },
);
const v = compileValidator(schema);

test("each kind of value is described with its range", () => {
  const cases: [unknown, string, string][] = [
    [{}, "params.keyId is required and must be a string of 1 to 64 characters", "params.keyId"],
    [{ keyId: "" }, "params.keyId must be a string of 1 to 64 characters", "params.keyId"],
    [{ keyId: "k", count: 0 }, "params.count must be a whole number from 1 to 100", "params.count"],
    [{ keyId: "k", count: 1.5 }, "params.count must be a whole number from 1 to 100", "params.count"],
    [{ keyId: "k", ratio: -1 }, "params.ratio must be a number of at least 0", "params.ratio"],
    [{ keyId: "k", mode: "medium" }, "params.mode must be one of fast, slow", "params.mode"],
    [{ keyId: "k", flag: "yes" }, "params.flag must be true or false", "params.flag"],
    [{ keyId: "k", tags: ["a", "b", "c", "d"] }, "params.tags must be an array of at most 3 items (each a string)", "params.tags"],
    [{ keyId: "k", nested: { when: "soon" } }, "params.nested.when must be a string in the expected format", "params.nested.when"],
    [{ keyId: "k", extra: 1 }, "params.extra is not a known field here", "params.extra"],
  ];
  for (const [value, message, param] of cases) expect(failure(() => v.parse(value, "params"))).toEqual({ message, param });
});

test("a body that is not the right kind at all", () => {
  expect(failure(() => v.parse(5))).toEqual({ message: "The body must be an object", param: null });
});

test("the model endpoints' ranges, as a client meets them", () => {
  const chat = { model: "gpt-4o", messages: [{ role: "user", content: "hi" }] };
  expect(failure(() => chatCompletionRequest.parse({ ...chat, temperature: 5 }))).toEqual({
    message: "temperature must be a number from 0 to 2",
    param: "temperature",
  });
  expect(failure(() => chatCompletionRequest.parse({ ...chat, n: 0 })).message).toBe("n must be a whole number from 1 to 128");
  expect(failure(() => chatCompletionRequest.parse({ ...chat, messages: [] })).message).toBe(
    "messages must be an array of 1 to 100000 items (each an object)",
  );
  expect(failure(() => chatCompletionRequest.parse({ ...chat, messages: [{ role: "robot", content: "x" }] })).message).toBe(
    "messages.0.role must be one of system, developer, user, assistant, tool",
  );
  expect(failure(() => messagesRequest.parse({ model: "m", messages: [{ role: "user", content: "x" }] })).message).toBe(
    "max_tokens is required and must be a whole number of at least 1",
  );
});
