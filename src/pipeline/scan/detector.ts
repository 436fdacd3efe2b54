/**
 * A detector: one pattern, the category it belongs to, where a match can start, and
 * an optional validator that confirms a candidate match (checksums, entropy,
 * placeholders). Patterns must stay linear: no nested or overlapping quantifiers,
 * bounded repetition only.
 */
export type Category = "secret" | "injection" | "pii";

/**
 * Where a match of a detector can begin. The engine tries its patterns only at such
 * places (triggers.ts finds them in one pass), so a start must cover every place a
 * match could begin: a wrong one hides findings (the engine's tests check each
 * detector against a scan at every position).
 */
export type Start =
  /** A word (`\b`) that begins with one of these literals; derived from `\b(?:lit|lit)...` patterns when not given. */
  | { at: "word"; literals: readonly string[] }
  /** A word that begins with a digit. */
  | { at: "digit-word" }
  /** A word that begins with two capital letters and two digits (IBAN). */
  | { at: "caps-digits-word" }
  /** A boundary within the 64 characters before an `@` (an e-mail's local part). */
  | { at: "before-at" }
  /**
   * A word within the 96 characters before a `:`, `=` or `,` (`get("api_key", "...")`) that `name` ends just before (allowing a quote and 3 blanks).
   * `ends`, when given, lists every pair of characters (lower case) a name can end with before its digits, quote, bracket and blanks:
   * a sign after any other pair (a comma after `however` in prose) is ruled out without trying `name`.
   */
  | { at: "assignment"; name: RegExp; ends?: readonly string[] }
  /** These literals, anywhere (case-insensitive for case-folding detectors); one opening with a script letter (isScriptLetter) where no such letter precedes it. */
  | { at: "literal"; literals: readonly string[] }
  /**
   * The start of the text or a newline, up to 3 blanks, then one of these characters (any case). With `afterLabel`
   * (ASCII `first` only), the line's first run of letters, digits and hyphens (a host's first label, at most 63
   * characters, empty at a `*`) must be followed by one of its characters: a sentence's first word is followed by a blank.
   */
  | { at: "line"; first: string; afterLabel?: string }
  /** A `+` or `(` followed by a digit. */
  | { at: "signed-number" }
  /** A Unicode tag character or a bidirectional control. */
  | { at: "invisible" }
  /** The first character of a run of 24 or more base64 characters. */
  | { at: "base64-run" };

/**
 * Letters of alphabets written with spaces between words beyond ASCII (Latin, Greek, Cyrillic,
 * Arabic, Devanagari, Bengali, Hangul). A literal start opening with one stands only where
 * none precedes it (a word's beginning), so a pattern with such a start opens with
 * NOT_AFTER_LETTER; the trigger pass (isScriptLetter) and the expression then agree.
 */
const SCRIPT_LETTERS = "\\u00C0-\\u024F\\u0370-\\u052F\\u0600-\\u06FF\\u0900-\\u09FF\\u1100-\\u11FF\\u3130-\\u318F\\uAC00-\\uD7AF";
export const NOT_AFTER_LETTER = `(?<![${SCRIPT_LETTERS}])`;
export const isScriptLetter = (c: number) =>
  (c >= 0xc0 && c <= 0x24f) ||
  (c >= 0x370 && c <= 0x52f) ||
  (c >= 0x600 && c <= 0x6ff) ||
  (c >= 0x900 && c <= 0x9ff) ||
  (c >= 0x1100 && c <= 0x11ff) ||
  (c >= 0x3130 && c <= 0x318f) ||
  (c >= 0xac00 && c <= 0xd7af);

/** Zero-width characters: invisible, and used to split words a filter looks for ("ig\u200Bnore"). triggers.ts's `isZeroWidth` lists the same ones. */
export const ZERO_WIDTH_CHARS = "\\u200B-\\u200D\\u2060\\uFEFF";
/**
 * The other invisible format characters (Unicode's default-ignorable code points: the soft hyphen, the invisible
 * operators, the Mongolian vowel separator, left-to-right and right-to-left marks, Hangul fillers, ...), which split a
 * word as well. Not the bidirectional controls, variation selectors and tag characters, which are read apart.
 */
export const FORMAT_CHARS =
  "\\u00AD\\u034F\\u061C\\u115F\\u1160\\u17B4\\u17B5\\u180E\\u200E\\u200F\\u2061-\\u2065\\u206A-\\u206F\\u3164\\uFFA0\\uFFF0-\\uFFF8";
export const ASTRAL_FORMAT = "\\uD82F[\\uDCA0-\\uDCA3]|\\uD834[\\uDD73-\\uDD7A]";
/** Every invisible character the second readings remove (reveals.ts). */
export const ZERO_WIDTH = new RegExp(`[${ZERO_WIDTH_CHARS}${FORMAT_CHARS}]|${ASTRAL_FORMAT}`, "g");
/**
 * Whether a text is read again without its invisible characters (the trigger walk's `zeroWidth`): a zero-width
 * character anywhere (they also join emoji), another format character only inside a word of ASCII letters and digits,
 * where it splits one (a right-to-left mark beside Hebrew or a soft hyphen at the end of a line opens nothing).
 */
export const SPLITS_WORDS = new RegExp(`[${ZERO_WIDTH_CHARS}]|(?<=[A-Za-z0-9])(?:[${FORMAT_CHARS}]|${ASTRAL_FORMAT})(?=[A-Za-z0-9])`);

export interface Detector {
  /** A stable name, used for redaction placeholders and in messages (never a value). */
  kind: string;
  category: Category;
  /** Regular-expression source, combined with the others (see engine.ts); case-folding detectors are lower-cased there. */
  pattern: string;
  /** Confirms a candidate; `match` is the whole matched text, `region` the organization's phone region (ISO 3166 alpha-2). */
  validate?: (match: string, text: string, index: number, region: string) => boolean;
  /** The format ignores case (`PASSWORD=`, `AWS_SECRET_ACCESS_KEY`); others are re-checked exactly. */
  ignoreCase?: boolean;
  /**
   * Generic assignments only: where the assigned value starts (after `=` or `:`). A
   * rejected assignment resumes the scan there, since the value may begin another one.
   */
  valueAfter?: RegExp;
  /** Injection only: how much one match counts toward the blocking threshold. */
  weight?: number;
  /**
   * Injection only: the match is an encoding. Its decoding (null when it is not text)
   * is scanned for injection, and the match counts only if that reaches the threshold.
   */
  decode?: (match: string) => string | null;
  /**
   * Tried in an expression of its own, only where its own starts stand (injection rules; and the generic credential read
   * from its value, whose match would otherwise hide a vendor rule's that opens inside it). For rules that
   * rarely start in everyday text (other languages, data addressed to the model): in the shared expression
   * each would make every try at every other start dearer.
   */
  apart?: boolean;
  /** Where a match can begin; omitted for `\b` patterns that open with literals, which are derived. */
  start?: Start | readonly Start[];
  /**
   * What every match holds near its beginning: one of `anyOf`'s (ASCII) characters within `within`
   * characters of its start. Where none stands, the engine does not run the expression
   * (detector-needs.ts): a short loop instead of its compiled code, which costs microseconds
   * to bring back after a pause even when it fails at once. A wrong bound hides findings.
   */
  needs?: { anyOf: string; within: number };
}

/**
 * A vendor rule from gitleaks whose matches open with no literal (`sourcegraph: <40 hex>`,
 * an Azure secret around its `Q~`): searched through the whole text, only when the
 * trigger pass met one of its keywords there (triggers.ts), as gitleaks gates it.
 */
export interface GatedSecretRule {
  kind: string;
  /** Global, so that every match in the text is met. */
  regex: RegExp;
  keywords: readonly string[];
  validate: (match: string) => boolean;
}
