/**
 * Webhook signing: `x-gw-signature: sha256=<hex>` is HMAC-SHA256 over
 * `<timestamp>.<body>` with the organization's webhook secret, and `x-gw-timestamp`
 * carries the same Unix seconds. Signing the timestamp with the body lets a receiver
 * refuse replays older than a few minutes without trusting an unsigned header.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

export const SIGNATURE_HEADER = "x-gw-signature";
export const TIMESTAMP_HEADER = "x-gw-timestamp";

export function signWebhook(secret: string, timestampS: number, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(`${timestampS}.${body}`).digest("hex")}`;
}

/** What a receiver does: recompute, compare in constant time, and refuse stale timestamps. */
export function verifyWebhook(secret: string, headers: Headers, body: string, nowS: number, toleranceS = 300): boolean {
  const ts = Number(headers.get(TIMESTAMP_HEADER));
  const sig = headers.get(SIGNATURE_HEADER) ?? "";
  if (!Number.isInteger(ts) || Math.abs(nowS - ts) > toleranceS) return false;
  const expected = Buffer.from(signWebhook(secret, ts, body));
  const given = Buffer.from(sig);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
