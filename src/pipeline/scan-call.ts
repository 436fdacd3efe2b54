/**
 * Stage 6 for one call, as every surface runs it (the stage list, count_tokens): the
 * organization's scan policy, the scan, and what was found and done handed to the
 * recorder (counters, and an audit entry for a flag or a block, never text) before
 * the call goes on or is refused.
 */
import { actorOf } from "../domain/identity.ts";
import { type ScanRecorder, scanPolicyOf } from "../domain/scan-policy.ts";
import type { OrgSettings } from "../state/org-settings.ts";
import type { CallInput } from "./call-types.ts";
import type { TextSlot } from "./scan/request-texts.ts";
import { type ScanVerdict, SecurityViolation, scanRequest } from "./security-scan.ts";

type Json = Record<string, unknown>;

export interface ScanCallDeps {
  settings: OrgSettings;
  /** Where what scanning found and did goes; absent in tests that do not look. */
  scans?: ScanRecorder;
}

export async function scanCall(deps: ScanCallDeps, input: CallInput, body: Json, texts: (body: Json) => TextSlot[]): Promise<ScanVerdict> {
  const { identity, requestId } = input.scope;
  const settings = await deps.settings.get(identity.organization.id);
  const policy = scanPolicyOf(settings);
  const event = {
    orgId: identity.organization.id,
    actor: actorOf(identity, null, input.headers.get("user-agent")?.slice(0, 500) ?? null),
    requestId,
  };
  let verdict: ScanVerdict;
  try {
    verdict = scanRequest(body, texts, policy, settings.phoneRegion);
  } catch (err) {
    if (err instanceof SecurityViolation) await deps.scans?.record({ ...event, report: err.report, flags: err.flags, block: err.block });
    throw err;
  }
  await deps.scans?.record({ ...event, report: verdict.report, flags: verdict.flags, block: null });
  return verdict;
}
