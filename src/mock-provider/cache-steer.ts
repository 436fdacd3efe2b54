/**
 * The mock provider's prompt-cache steer: a request whose end user (chat's `user`, the
 * messages format's `metadata.user_id`, which the gateway's translation fills from
 * `user`) is `cache-r<reads>-w<writes>` or `cache-r<reads>-w<writes>-h<of them 1-hour>`
 * is answered as if that many prompt tokens came from and went to the vendor's prompt
 * cache, in each format's own usage fields. The end user steers it, not the model name,
 * so the model stays one the catalog prices.
 */
import type { SimulatedCache } from "../simulator/openai-format.ts";

const STEER = /^cache-r(\d{1,9})-w(\d{1,9})(?:-h(\d{1,9}))?$/;

export function cacheSteer(body: Record<string, any> | null): SimulatedCache | undefined {
  const user = body?.user ?? body?.metadata?.user_id;
  const m = typeof user === "string" ? STEER.exec(user) : null;
  if (!m) return undefined;
  const write = Number(m[2]);
  return { read: Number(m[1]), write, writeLong: Math.min(Number(m[3] ?? 0), write) };
}
