/**
 * Stage 6 for one call, as every surface runs it (the stage list, count_tokens): the
 * organization's scan policy, the scan, and what was found and done handed to the
 * recorder (counters, and an audit entry for a flag or a block, never text) before
 * the call goes on or is refused.
 */
import { actorOf } from "../domain/identity.ts";
import { type ScanRecorder, scanPolicyOf } from "../domain/scan-policy.ts";
import type { OrgSettings } from "../state/org-settings.ts";
import type { OrgPreferences } from "../domain/types.ts";
import type { CallInput } from "./call-types.ts";
import type { ScanCache } from "./scan-cache.ts";
import type { TextSlot } from "./scan/request-texts.ts";
import { type ScanVerdict, SecurityViolation, scanRequest } from "./security-scan.ts";

type Json = Record<string, unknown>;

export interface ScanCallDeps {
  settings: OrgSettings;
  /** Where what scanning found and did goes; absent in tests that do not look. */
  scans?: ScanRecorder;
  /** Verdicts kept per text (scan-cache.ts); absent: every text is scanned. */
  verdicts?: ScanCache;
}

/**
 * The verdict, or the refusal; answers at once when nothing is to be waited for (the
 * settings in memory, nothing found or done that the recorder keeps).
 */
export function scanCall(
  deps: ScanCallDeps,
  input: CallInput,
  body: Json,
  texts: (body: Json) => TextSlot[],
): ScanVerdict | Promise<ScanVerdict> {
  const settings = deps.settings.get(input.scope.identity.organization.id);
  // In memory (the usual call): no closure is built.
  return settings instanceof Promise ? scanOnceLoaded(deps, settings, input, body, texts) : scanUnder(deps, settings, input, body, texts);
}

async function scanOnceLoaded(
  deps: ScanCallDeps,
  loading: Promise<OrgPreferences>,
  input: CallInput,
  body: Json,
  texts: (body: Json) => TextSlot[],
): Promise<ScanVerdict> {
  return scanUnder(deps, await loading, input, body, texts);
}

function scanUnder(
  deps: ScanCallDeps,
  settings: OrgPreferences,
  input: CallInput,
  body: Json,
  texts: (body: Json) => TextSlot[],
): ScanVerdict | Promise<ScanVerdict> {
  let verdict: ScanVerdict;
  try {
    const scan = deps.verdicts?.scannerFor(input.scope.identity.organization.id);
    verdict = scanRequest(body, texts, scanPolicyOf(settings), settings.phoneRegion, scan);
  } catch (err) {
    if (!(err instanceof SecurityViolation) || !deps.scans) throw err;
    return deps.scans.record({ ...eventOf(input), report: err.report, flags: err.flags, block: err.block }).then(() => {
      throw err;
    });
  }
  // A clean verdict (nothing found, nothing done) is nothing the recorder keeps: no event is built for it.
  if (!deps.scans || !worthRecording(verdict)) return verdict;
  return deps.scans.record({ ...eventOf(input), report: verdict.report, flags: verdict.flags, block: null }).then(() => verdict);
}

function eventOf(input: CallInput) {
  const { identity, requestId } = input.scope;
  return {
    orgId: identity.organization.id,
    actor: actorOf(identity, null, input.headers.get("user-agent")?.slice(0, 500) ?? null),
    requestId,
  };
}

function worthRecording({ report, flags }: ScanVerdict): boolean {
  return flags.length > 0 || report.blocked !== null || report.injectionFlagged || report.redacted > 0 || report.unscanned > 0;
}
