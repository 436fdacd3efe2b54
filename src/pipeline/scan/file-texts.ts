/**
 * Files sent inline (a chat `file` part, a messages `document`, a Responses
 * `input_file`): their text, decoded for the scanner, and the way back to the wire
 * form once redaction changed it. A file that is not text (a PDF, an image, an
 * archive) is reported unread: the gateway does not parse documents, and says so in
 * `x-gw-security` (`unscanned=N`) instead of pretending it looked.
 */
import { percentDecoded } from "./validators.ts";

/** The text of an inline file, and how to write a changed text back in the same form. */
export interface FileText {
  text: string;
  encode(text: string): string;
  /** Read as it is because it did not decode to text: most likely a binary file, counted as unread. */
  unread?: true;
}

/** Media types that are text whatever their top-level type says (JSON, XML, CSV, YAML, scripts, ...). */
const TEXT_MEDIA =
  /^(?:text\/[\w.+-]+|application\/(?:json|ld\+json|x-ndjson|ndjson|xml|csv|x-csv|yaml|x-yaml|toml|x-toml|javascript|x-javascript|ecmascript|typescript|x-typescript|sql|x-sh|x-shellscript|x-python|x-httpd-php|graphql|x-www-form-urlencoded|markdown|x-markdown|rtf|x-tex|x-latex|x-subrip|[\w.-]+\+(?:json|xml|yaml)))$/i;
const DATA_URL = /^data:([^,]*?),/i;
/** Raw base64 (no `data:` prefix), as the messages format and some chat clients send it. */
const BASE64 = /^[A-Za-z0-9+/\r\n]+={0,2}$/;
/** Shorter values are read as they are: a word like `filedata` is base64-shaped by accident. */
const MIN_RAW_BASE64 = 16;

const utf8 = new TextDecoder("utf-8", { fatal: false });
const strictUtf8 = new TextDecoder("utf-8", { fatal: true });
const encoder = new TextEncoder();

export const isTextMedia = (mediaType: string | undefined): boolean => mediaType !== undefined && TEXT_MEDIA.test(mediaType.trim());

/** No type, or the type that says "some bytes": what the bytes hold decides. */
const GENERIC_MEDIA = /^(?:application\/(?:octet-stream|unknown|binary))?$/i;

/**
 * Bytes that are text: declared so (decoded leniently, as a model would read them), or
 * of no particular type but valid UTF-8 without control characters other than tab, line
 * breaks and form feed. A file declared as another type (a PDF, an image) is that type.
 */
function textOf(bytes: Uint8Array, mediaType: string | undefined): string | null {
  if (isTextMedia(mediaType)) return utf8.decode(bytes);
  if (!GENERIC_MEDIA.test((mediaType ?? "").trim())) return null;
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    return null;
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what marks a binary file.
  return /[\u0000-\u0008\u000b\u000e-\u001f\u007f]/.test(text) ? null : text;
}

function base64Bytes(value: string): Uint8Array | null {
  try {
    return Uint8Array.from(Buffer.from(value.replace(/[\r\n]/g, ""), "base64"));
  } catch {
    return null;
  }
}

const base64Of = (text: string) => Buffer.from(encoder.encode(text)).toString("base64");

/**
 * An inline file's text. `mediaType` is the declared one when the format keeps it beside
 * the data (the messages `source.media_type`); a data URL carries its own. Null when the
 * file is not text (unread); a value that is neither a data URL nor base64 is its own text.
 */
export function readFileData(value: string, mediaType?: string): FileText | null {
  const url = DATA_URL.exec(value);
  if (url) {
    const meta = url[1] ?? "";
    const payload = value.slice(url[0].length);
    const type = meta.split(";")[0] || "text/plain";
    if (!/;base64$/i.test(meta)) return { text: percentDecoded(payload), encode: (t) => `data:${meta},${encodeURIComponent(t)}` };
    const bytes = base64Bytes(payload);
    const text = bytes && textOf(bytes, type);
    return text === null || text === undefined ? null : { text, encode: (t) => `data:${meta},${base64Of(t)}` };
  }
  if (mediaType !== undefined || (value.length >= MIN_RAW_BASE64 && BASE64.test(value))) {
    const bytes = base64Bytes(value);
    const text = bytes && textOf(bytes, mediaType);
    if (text !== null && text !== undefined) return { text, encode: base64Of };
    // Declared base64 that is not text is a binary file; undeclared, it may be ordinary text that only looks like
    // base64 (an AWS secret key does): it is scanned as it is, and counted unread.
    if (mediaType !== undefined) return null;
    return { text: value, encode: (t) => t, unread: true };
  }
  return { text: value, encode: (t) => t };
}
