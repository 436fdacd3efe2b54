/**
 * Decoding what may hide an instruction: a run of base64 (or hex) or of URL
 * percent-escapes. A decoding is returned only when it reads as text, so hashes,
 * images and random tokens are dropped after a look at their first bytes.
 */

/** Longer runs are not decoded: a hidden instruction is short, and the scan stays cheap. */
const MAX_DECODE = 64 * 1024;
const HEX = /^(?:[0-9a-f]{2})+$|^(?:[0-9A-F]{2})+$/;

function readsAsText(head: string): boolean {
  let printable = 0;
  for (let i = 0; i < head.length; i++) {
    const c = head.charCodeAt(i);
    if ((c >= 32 && c < 127) || c === 10 || c === 13 || c === 9) printable++;
  }
  return head.length > 0 && printable >= head.length * 0.95;
}

/** A base64 run, or a hex one (hex digits are base64 characters too). */
export function decodeBase64OrHex(run: string): string | null {
  if (run.length > MAX_DECODE * 1.4) return null;
  const encoding = HEX.test(run) ? "hex" : "base64";
  if (!readsAsText(Buffer.from(run.slice(0, 64), encoding).toString("latin1"))) return null;
  return Buffer.from(run, encoding).toString("utf8");
}

/** A run of `%XX` escapes. */
export function decodePercent(run: string): string | null {
  if (run.length > MAX_DECODE * 3) return null;
  const bytes = Buffer.from(run.replace(/%/g, ""), "hex");
  if (!readsAsText(bytes.subarray(0, 48).toString("latin1"))) return null;
  return bytes.toString("utf8");
}
