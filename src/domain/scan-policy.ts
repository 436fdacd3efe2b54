/**
 * The organization's scan policy as the scanner applies it, and what a call's scan
 * reports (counts, paths and kinds, never text). `piiAction` (the older preference)
 * and `security.pii` are one setting: `piiAction` is what older rows hold and what
 * every write keeps equal to `security.pii`, so it decides.
 */
import type { Actor } from "./identity.ts";
import { DEFAULT_ORG_PREFERENCES, type OrgPreferences, type ScanPolicy } from "./types.ts";

export type ScanCategory = "secret" | "injection" | "pii";

/** What scanning found and did in one call, by category. */
export interface ScanReport {
  secret: number;
  injection: number;
  /** An injection was suspected (or, under the `flag` policy, found) and the call forwarded. */
  injectionFlagged: boolean;
  pii: number;
  redacted: number;
  /** Files the scanner could not read (binary, or given by reference). */
  unscanned: number;
  /** The category that refused the call, if one did. */
  blocked: ScanCategory | null;
}

/** Where a category was flagged or blocked, and the kinds of finding. */
export interface ScanMark {
  category: ScanCategory;
  /** The path in the body (`messages.2.content`), for the caller's answer. */
  path: string;
  /** The path with the names the caller chose as `*`: what the audit log keeps. */
  where: string;
  kinds: string[];
}

/** One scanned call, for the audit log and the counters. */
export interface ScanEvent {
  orgId: string;
  actor: Actor;
  requestId: string;
  report: ScanReport;
  /** Flagged injections (forwarded). */
  flags: ScanMark[];
  /** What refused the call, if anything did. */
  block: ScanMark | null;
}

/**
 * Where scan events go (services/scan-events.ts): never the caller's error if it fails.
 * Told of a call when scanning found or did something (a flag, a block, a redaction, a
 * file it could not read); a clean call is not an event.
 */
export interface ScanRecorder {
  record(event: ScanEvent): Promise<void>;
}

export function scanPolicyOf(prefs: Pick<OrgPreferences, "piiAction"> & { security?: Partial<ScanPolicy> }): ScanPolicy {
  return { ...DEFAULT_ORG_PREFERENCES.security, ...prefs.security, secrets: "block", pii: prefs.piiAction };
}

/** A preferences patch's scan settings folded into the current ones, `piiAction` and `security.pii` kept equal. */
export function patchScanPolicy(
  current: OrgPreferences,
  patch: { piiAction?: ScanPolicy["pii"]; security?: Partial<ScanPolicy> },
): Pick<OrgPreferences, "piiAction" | "security"> {
  const pii = patch.security?.pii ?? patch.piiAction ?? current.piiAction;
  const security: ScanPolicy = { ...scanPolicyOf(current), ...patch.security, secrets: "block", pii };
  return { piiAction: pii, security };
}
