/**
 * The hot-state snapshot: token buckets written with msgpack at shutdown and read at
 * start, so a restart does not hand every caller a full bucket. A missing or damaged
 * snapshot is ignored (the server must start regardless). Holds bucket keys (key
 * ids, user ids, addresses), never key values.
 */
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { pack, unpack } from "msgpackr";
import type { BucketSnapshot } from "./rate-limiter.ts";

export interface HotSnapshot {
  version: 1;
  writtenAt: number;
  buckets: BucketSnapshot[];
}

export function writeSnapshot(path: string, snap: HotSnapshot): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, pack(snap), { mode: 0o600 });
  renameSync(tmp, path);
}

export function readSnapshot(path: string): HotSnapshot | null {
  let raw: Buffer;
  try {
    raw = readFileSync(path);
  } catch {
    return null;
  }
  try {
    const snap = unpack(raw) as Partial<HotSnapshot> | null;
    if (!snap || snap.version !== 1 || !Array.isArray(snap.buckets)) return null;
    const buckets = snap.buckets.filter(
      (b): b is BucketSnapshot => typeof b?.key === "string" && Number.isFinite(b.tokens) && Number.isFinite(b.updatedAt),
    );
    return { version: 1, writtenAt: Number(snap.writtenAt) || 0, buckets };
  } catch {
    return null;
  }
}
