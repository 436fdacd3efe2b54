/**
 * A verdict per text: the scanner's result (findings as offsets, the injection score and
 * confidence, never the text) kept by a digest of the organization, the options and the
 * text, so a system prompt sent on every call and a conversation resent every turn are
 * read once. The organization's policy is applied after (security-scan.ts), so a policy
 * change applies to texts read before it. docs/decisions.md, "A verdict per text".
 */
import { LRUCache } from "lru-cache";
import { type Finding, type ScanOptions, scanText, type TextScan } from "./scan/engine.ts";

/** The options a request's scan varies by; depth and model are the engine's own (its defaults, fixed for the process). */
export type CachedScanOptions = Pick<ScanOptions, "injection" | "phoneRegion">;

/** A text's scan, under the options a cached scan keeps apart. */
export type ScanFn = (text: string, opts: CachedScanOptions) => TextScan;

/**
 * Below this many characters a text is scanned every time: a miss's digest and store
 * would add a third to its scan (about 0.4 µs to 1.2), a hit would save under 1 µs, and
 * an entry would outweigh the text it stands for.
 */
export const MIN_CACHED_CHARS = 64;

/** The limit in findings is this many per entry on average: most texts hold none, a hostile one thousands. */
const FINDINGS_PER_ENTRY = 4;

/** One text may take at most this share of the findings limit; a text with more is scanned every time. */
const LARGEST_ENTRY_SHARE = 16;

/** Slots of the first-sighting table per entry kept (rounded up to a power of two). */
const SIGHTINGS_PER_ENTRY = 4;

export interface ScanCacheStats {
  hits: number;
  misses: number;
  entries: number;
  /** Findings held in all (the size limit counts one more per entry). */
  findings: number;
}

export class ScanCache {
  private readonly verdicts: LRUCache<string, TextScan> | null;
  /**
   * A text is kept on its second sighting, not its first: a text seen once (a new turn,
   * every prompt of a batch job) would otherwise be kept, pushed out unread, and left to
   * the collector, which served cost several µs a call more than the digest when nothing
   * repeats. Each slot holds 32 bits of a fast hash of the last text that fell in it: no
   * allocation, and a collision only keeps a text one sighting early.
   */
  private readonly sighted: Uint32Array;
  private hits = 0;
  private misses = 0;

  /** `entries`: how many texts' verdicts are kept (0: none, every text is scanned). */
  constructor(entries: number) {
    const maxSize = entries * FINDINGS_PER_ENTRY;
    this.verdicts =
      entries > 0
        ? new LRUCache<string, TextScan>({
            max: entries,
            maxSize,
            maxEntrySize: Math.max(1, Math.floor(maxSize / LARGEST_ENTRY_SHARE)),
            sizeCalculation: (v) => 1 + v.findings.length,
          })
        : null;
    this.sighted = new Uint32Array(entries > 0 ? 2 ** Math.ceil(Math.log2(entries * SIGHTINGS_PER_ENTRY)) : 0);
  }

  /**
   * `text`'s verdict for `organization`: the kept one, or a fresh scan, kept from the text's
   * second sighting on. The result is frozen: callers may share it.
   */
  scan(organization: string, text: string, opts: CachedScanOptions): TextScan {
    // A lone surrogate encodes to U+FFFD in the digest's UTF-8, so two such texts could share a key: read it fresh.
    if (!this.verdicts || text.length < MIN_CACHED_CHARS || !text.isWellFormed()) return scanText(text, opts);
    // First sightings by a fast hash: a text seen once (most new turns) costs no digest.
    // Its collisions only make a text pay the digest, or be kept a sighting early: the
    // verdict is still found by the digest alone. The seed keeps organizations apart here too.
    // The 64-bit hash read as one number (its top 53 bits): its top 32 the mark, the 21
    // below them the slot. BigInt operations and a second native call for the seed cost
    // a text 10-25 µs after a pause, hit or miss (docs/performance.md, "The scanner on text
    // never seen").
    const sighting = Number(wyhash(text, sightingSeed(organization, opts)));
    const high = Math.floor(sighting / 2 ** 32);
    // The 21 bits below the top 32, and for a table larger than that the top bits spread over the rest.
    const slot =
      (Math.floor((sighting - high * 2 ** 32) / 2 ** 11) ^ (Math.imul(high, 0x2545f491) & ~0x1fffff)) & (this.sighted.length - 1);
    // Never 0, an empty slot; `>>> 0` keeps it unsigned, as the table reads it.
    const mark = (high | 1) >>> 0;
    if (this.sighted[slot] !== mark) {
      this.sighted[slot] = mark;
      this.misses++;
      return frozen(scanText(text, opts));
    }
    const key = verdictKey(organization, opts, text);
    const kept = this.verdicts.get(key);
    if (kept) {
      this.hits++;
      return kept;
    }
    this.misses++;
    const scan = frozen(scanText(text, opts));
    this.verdicts.set(key, scan);
    return scan;
  }

  /** The scanner for one organization's texts, as scanRequest takes it. */
  scannerFor(organization: string): ScanFn {
    return (text, opts) => this.scan(organization, text, opts);
  }

  stats(): ScanCacheStats {
    const entries = this.verdicts?.size ?? 0;
    return { hits: this.hits, misses: this.misses, entries, findings: (this.verdicts?.calculatedSize ?? 0) - entries };
  }
}

/** Bun's wyhash, which takes its seed as a number too (the same hash as the BigInt's); its declaration names a BigInt only. */
const wyhash = Bun.hash.wyhash as unknown as (data: string, seed: number) => bigint;

/** The sighting hash's seed: the organization, the options (FNV-1a over their characters), so a text is sighted apart per key. */
function sightingSeed(organization: string, opts: CachedScanOptions): number {
  let h = opts.injection ? 0x811c9dc5 : 0x050c5d1f;
  for (let i = 0; i < organization.length; i++) h = Math.imul(h ^ organization.charCodeAt(i), 0x01000193);
  const region = opts.phoneRegion ?? "";
  h = Math.imul(h ^ 10, 0x01000193);
  for (let i = 0; i < region.length; i++) h = Math.imul(h ^ region.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * SHA-256 over the organization, the options and the text, each part but the last
 * prefixed by its length so no two different inputs read the same. A cryptographic digest
 * on purpose: with a fast non-cryptographic hash an attacker could craft a text that
 * collides with a cached benign one and have an attack forwarded unread. The organization
 * is in it so that one tenant cannot tell by timing whether another sent a given text.
 */
export function verdictKey(organization: string, opts: CachedScanOptions, text: string): string {
  return digestOf(organization, opts, text).latin1Slice(0, DIGEST.length);
}

/**
 * The digest's bytes, written into one buffer reused by every call (read it before the
 * next), and read as the key by Buffer's own `latin1Slice` (Node's and Bun's, not in the
 * type definitions): a character a byte, nothing to encode; `toString("base64")`
 * brought back its encoding's handling after a pause, about 5 µs of a hit.
 */
const DIGEST = Buffer.alloc(32) as Buffer & { latin1Slice(start: number, end: number): string };

function digestOf(organization: string, opts: CachedScanOptions, text: string): typeof DIGEST {
  const region = opts.phoneRegion ?? "";
  Bun.SHA256.hash(`${organization.length}:${organization}${opts.injection ? "1" : "0"}${region.length}:${region}${text}`, DIGEST);
  return DIGEST;
}

/** Most texts' verdict: kept as one shared object, so a clean text's entry holds nothing of its own. */
const CLEAN: TextScan = Object.freeze({
  findings: Object.freeze([]) as unknown as Finding[],
  injectionScore: 0,
  injectionConfidence: null,
});

/** The verdict made read-only where callers could reach it: the result, its list and each finding. */
function frozen(scan: TextScan): TextScan {
  if (scan.findings.length === 0 && scan.injectionScore === 0 && scan.injectionConfidence === null) return CLEAN;
  for (const f of scan.findings) Object.freeze(f);
  Object.freeze(scan.findings as Finding[]);
  return Object.freeze(scan);
}
