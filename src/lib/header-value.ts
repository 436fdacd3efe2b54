/**
 * A string made safe to send as an HTTP header value: printable ASCII passes as it
 * is; anything else (control characters, line breaks, non-Latin-1) is percent-encoded,
 * so a stored name can never make a response fail after the provider was called.
 */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

export function headerValue(text: string): string {
  return PRINTABLE_ASCII.test(text) ? text : encodeURIComponent(text);
}
