/**
 * Compiled TypeBox validators that turn the first schema violation into a 400 naming
 * the field (`params.keyId: Expected string`). Compile once at module load; checking
 * is then a generated function call.
 */
import type { Static, TSchema } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { badRequest } from "./errors.ts";

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
      const path = first ? first.path.replace(/^\//, "").replaceAll("/", ".") : "";
      const where = [prefix, path].filter(Boolean).join(".");
      const message = first?.schema.errorMessage ?? first?.message ?? "invalid value";
      throw badRequest(where ? `${where}: ${message}` : String(message), { param: where || null });
    },
  };
}
