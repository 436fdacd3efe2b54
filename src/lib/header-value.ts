/**
 * A string made safe to send as an HTTP header value: printable ASCII passes as it
 * is; anything else (control characters, line breaks, non-Latin-1) is percent-encoded,
 * so a stored name can never make a response fail after the provider was called.
 */

/** Space to tilde: `[\x20-\x7e]`. */
const FIRST_PRINTABLE = 0x20;
const LAST_PRINTABLE = 0x7e;

/**
 * Read by hand rather than by a regular expression: every model call's answer runs it,
 * and after a pause an expression's compiled code is one more thing to bring back.
 */
export function headerValue(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < FIRST_PRINTABLE || c > LAST_PRINTABLE) return encodeURIComponent(text);
  }
  return text;
}
