import { expect, test } from "bun:test";
import { mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readSnapshot, writeSnapshot } from "../../src/state/snapshot.ts";

const dir = mkdtempSync(join(tmpdir(), "gw-snap-"));

test("round trip through msgpack, written with mode 0600", () => {
  const path = join(dir, "s.msgpack");
  const snap = { version: 1 as const, writtenAt: 5, buckets: [{ key: "key:k1", tokens: 3.5, updatedAt: 42 }] };
  writeSnapshot(path, snap);
  expect(readSnapshot(path)).toEqual(snap);
  expect(statSync(path).mode & 0o777).toBe(0o600);
});

test("missing, corrupt or foreign snapshots are ignored", () => {
  expect(readSnapshot(join(dir, "missing"))).toBeNull();
  const corrupt = join(dir, "corrupt");
  writeFileSync(corrupt, Buffer.from([0xc1, 0xff, 0x00, 0x13]));
  expect(readSnapshot(corrupt)).toBeNull();
  const other = join(dir, "other");
  writeSnapshot(other, { version: 2 as never, writtenAt: 1, buckets: [] });
  expect(readSnapshot(other)).toBeNull();
});

test("malformed bucket entries are dropped, the rest kept", () => {
  const path = join(dir, "mixed");
  writeSnapshot(path, { version: 1, writtenAt: 1, buckets: [{ key: "ok", tokens: 1, updatedAt: 1 }, { key: 5, tokens: "x" } as never] });
  expect(readSnapshot(path)?.buckets).toEqual([{ key: "ok", tokens: 1, updatedAt: 1 }]);
});
