/** Flag parsing for the commands: `node:util` parseArgs, with errors turned into usage messages. */
import { parseArgs } from "node:util";
import { isPlainText, MAX_PLAIN_TEXT, quotedSafely } from "../lib/plain-text.ts";

export class UsageError extends Error {
  override name = "UsageError";
}

/** Longer than any name, address or path an operator types (the API's names share the bound). */
const MAX_ARGUMENT = MAX_PLAIN_TEXT;

/**
 * Refuses an argument that is not plain text before anything is opened or written: an
 * organization name or e-mail address with an escape sequence would be stored as given,
 * then replayed to every terminal and page that shows it.
 */
function plainArguments(argv: string[]): void {
  for (const [i, arg] of argv.entries()) {
    const what =
      i > 0 && argv[i - 1]?.startsWith("--") && !arg.startsWith("--")
        ? `the value of ${quotedSafely(argv[i - 1] as string)}`
        : quotedSafely(arg);
    if (arg.length > MAX_ARGUMENT) throw new UsageError(`${what} is ${arg.length} characters long; arguments are at most ${MAX_ARGUMENT}`);
    if (!isPlainText(arg)) throw new UsageError(`${what} holds a control character (${quotedSafely(arg)}); arguments are plain text`);
  }
}

export type FlagSpec = Record<string, { type: "string" | "boolean"; short?: string }>;

export function parseFlags<F extends FlagSpec>(
  argv: string[],
  spec: F,
): { [K in keyof F]?: F[K]["type"] extends "boolean" ? boolean : string } {
  plainArguments(argv);
  try {
    const { values } = parseArgs({ args: argv, options: spec, strict: true, allowPositionals: false });
    return values as never;
  } catch (err) {
    throw new UsageError((err as Error).message.replace(/^TypeError \[\w+\]: /, ""));
  }
}

/** Flags and exactly `count` words after the command (`sign-in-domains approve ORG DOMAIN`). */
export function parseFlagsAndWords<F extends FlagSpec>(
  argv: string[],
  spec: F,
  names: string[],
): { flags: { [K in keyof F]?: F[K]["type"] extends "boolean" ? boolean : string }; words: string[] } {
  let parsed: { values: unknown; positionals: string[] };
  plainArguments(argv);
  try {
    parsed = parseArgs({ args: argv, options: spec, strict: true, allowPositionals: true });
  } catch (err) {
    throw new UsageError((err as Error).message.replace(/^TypeError \[\w+\]: /, ""));
  }
  if (parsed.positionals.length !== names.length)
    throw new UsageError(names.length === 0 ? "takes no words, only flags" : `needs ${names.join(" and ")}`);
  return { flags: parsed.values as never, words: parsed.positionals };
}

/** String flags only, as loadConfig takes them. */
export function stringFlags(values: Record<string, unknown>): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(values)) if (typeof v === "string") out[k] = v;
  return out;
}

export const DATA_FLAG = { data: { type: "string" } } as const satisfies FlagSpec;
