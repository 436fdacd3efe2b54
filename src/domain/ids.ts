/**
 * Record ids: a short type prefix plus a UUIDv7 without dashes. UUIDv7 starts with
 * the time, so ids sort by creation time, which is what audit paging relies on.
 */
export type IdPrefix = "org" | "usr" | "sa" | "key" | "prv" | "aud" | "evt" | "ntf" | "whd" | "doc" | "mcp";

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${Bun.randomUUIDv7().replaceAll("-", "")}`;
}
