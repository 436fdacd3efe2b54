/**
 * Compiled TypeBox validators that turn the first schema violation into a 400 naming
 * the field and what it accepts, in words (`temperature must be a number from 0 to 2`,
 * `params.keyId is required and must be a string`). Compile once at module load;
 * checking is then a generated function call.
 */
import type { Static, TSchema } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { ValueErrorType } from "@sinclair/typebox/errors";
import { badRequest } from "./errors.ts";
import { escapedControls } from "./plain-text.ts";
import { mustBe } from "./schema-words.ts";

export interface Validator<S extends TSchema> {
  /** Returns the value typed, or throws a 400 that says what is wrong and where. */
  parse(value: unknown, prefix?: string): Static<S>;
}

export function compileValidator<S extends TSchema>(schema: S): Validator<S> {
  const check = TypeCompiler.Compile(schema);
  return {
    parse(value, prefix = "") {
      if (check.Check(value)) return value;
      const first = check.Errors(value).First();
      const path = first ? first.path.replace(/^\//, "").replaceAll("/", ".").replaceAll("~1", "/").replaceAll("~0", "~") : "";
      // A path can hold a key the caller chose: named escaped, never replayed to whoever reads the message.
      const where = escapedControls([prefix, path].filter(Boolean).join("."));
      let predicate: string;
      if (!first) predicate = "is not valid";
      else if (first.type === ValueErrorType.ObjectRequiredProperty) predicate = `is required and ${mustBe(first.schema)}`;
      else if (first.type === ValueErrorType.ObjectAdditionalProperties) predicate = "is not a known field here";
      else predicate = mustBe(first.schema);
      throw badRequest(where ? `${where} ${predicate}` : `The body ${predicate}`, { param: where || null });
    },
  };
}
