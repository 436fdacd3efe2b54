/**
 * The mandatory scan around a tool call. Arguments are scanned before they leave:
 * a credential always blocks, personal data is redacted or blocks by the organization's
 * `piiAction`. Results are scanned before they reach the agent: injection aimed at the
 * model, credentials and personal data each `block` (an MCP tool error that says why),
 * `flag` (passed, marked in `_meta`) or `redact` (values replaced by placeholders), by
 * the organization's policy and the server's overrides. Never values, only kinds and counts.
 */
import { scanPolicyOf } from "../domain/scan-policy.ts";
import type { OrgPreferences } from "../domain/types.ts";
import { jsonStrings, type StringSlot, TOO_COMPLEX } from "./json-strings.ts";
import type { McpScanPolicy } from "../domain/mcp-records.ts";
import { type Category, redactFindings, scanSlots, type TextsScan } from "./text-findings.ts";

/** Where a result says what the gateway found and did. */
export const SCAN_META_KEY = "gateway/scan";

export type ScanAction = "passed" | "flagged" | "redacted" | "blocked";

export interface ScanOutcome {
  action: ScanAction;
  counts: Record<Category, number>;
  /** Why it was blocked, in words (no values). */
  reason?: string;
}

const NONE: Record<Category, number> = { secret: 0, injection: 0, pii: 0 };

const DESCRIBE: Record<Category, string> = { secret: "a credential", injection: "a prompt-injection attempt", pii: "personal data" };

/** The organization's scan policy (`security`, `piiAction`) for results, with the server's overrides on top. */
export function resultPolicy(prefs: OrgPreferences, overrides: Partial<McpScanPolicy>): McpScanPolicy {
  const { injection, pii } = scanPolicyOf(prefs);
  return { injection, secrets: "block", pii, ...overrides };
}

function because(scan: TextsScan, category: Category, what: string): string {
  return `${what} contains ${DESCRIBE[category]} (${scan.kinds[category].join(", ")}) at ${scan.firstPath[category]}`;
}

/** Scans a call's arguments; redacts in place (on a copy the caller made) or says why it blocks. */
export function scanArguments(args: Record<string, unknown>, prefs: OrgPreferences): ScanOutcome {
  const { slots, complete } = jsonStrings(args, "arguments");
  // What the walk did not read would leave unscanned.
  if (!complete) return { action: "blocked", counts: { ...NONE }, reason: `the arguments are ${TOO_COMPLEX}` };
  const scan = scanSlots(slots, false, prefs.phoneRegion);
  const counts = scan.counts;
  if (counts.secret) return { action: "blocked", counts, reason: because(scan, "secret", "the arguments") };
  if (counts.pii && scanPolicyOf(prefs).pii === "block")
    return { action: "blocked", counts, reason: because(scan, "pii", "the arguments") };
  if (counts.pii) {
    redactFindings(scan.bySlot, ["pii"]);
    return { action: "redacted", counts };
  }
  return { action: "passed", counts };
}

/** Media types whose bytes are text: `text/*`, JSON, XML, YAML, JavaScript. */
const isTextType = (type: unknown): boolean =>
  typeof type === "string" && /^(?:text\/|application\/(?:[\w.+-]*\+)?(?:json|xml|yaml|x-yaml|javascript|ecmascript)\b)/i.test(type);

/** The members of a result MCP defines and the scan reads by their kind; anything else is read as JSON. */
const DEFINED = new Set(["content", "structuredContent", "isError"]);

/** The strings of `value` as slots, appended to `slots`; false when the walk stopped short. */
function walked(slots: StringSlot[], value: unknown, path: string): boolean {
  const found = jsonStrings(value, path);
  slots.push(...found.slots);
  return found.complete;
}

/**
 * The texts of a tool result a model will read: text parts, embedded resources' text
 * (a text type's blob decoded), resource links' names and descriptions, structured
 * content; and what else the server sent along (its `_meta`, a part's, members MCP does
 * not define, URIs), which a client may show its model or write to its logs all the
 * same. `extras` holds the result's other members (the caller puts them back); null
 * when structured content or the rest is more than the walk reads.
 */
function resultSlots(result: Record<string, unknown>, extras: Record<string, unknown>): StringSlot[] | null {
  const slots: StringSlot[] = [];
  let complete = true;
  const content = Array.isArray(result.content) ? (result.content as Record<string, unknown>[]) : [];
  content.forEach((part, i) => {
    if (part?.type === "text" && typeof part.text === "string")
      slots.push({ path: `content.${i}.text`, text: part.text, set: (t) => (part.text = t) });
    const resource = part?.type === "resource" ? (part.resource as Record<string, unknown> | undefined) : undefined;
    if (resource && typeof resource.text === "string")
      slots.push({ path: `content.${i}.resource.text`, text: resource.text, set: (t) => (resource.text = t) });
    // Text sent as base64 is text a client decodes for the model all the same.
    if (resource && typeof resource.blob === "string" && isTextType(resource.mimeType))
      slots.push({
        path: `content.${i}.resource.blob`,
        text: Buffer.from(resource.blob, "base64").toString("utf8"),
        set: (t) => (resource.blob = Buffer.from(t, "utf8").toString("base64")),
      });
    // A link's name, title and description are shown to the model in place of the resource.
    if (part?.type === "resource_link")
      for (const field of ["name", "title", "description"] as const)
        if (typeof part[field] === "string")
          slots.push({ path: `content.${i}.${field}`, text: part[field] as string, set: (t) => (part[field] = t) });
    for (const [holder, at] of [
      [part, `content.${i}`],
      [resource, `content.${i}.resource`],
    ] as const) {
      if (!holder || typeof holder !== "object") continue;
      if ((part?.type === "resource_link" || holder === resource) && typeof holder.uri === "string")
        slots.push({ path: `${at}.uri`, text: holder.uri, set: (t) => (holder.uri = t) });
      if (holder._meta !== undefined) complete = walked(slots, holder._meta, `${at}._meta`) && complete;
    }
  });
  if (result.structuredContent !== undefined) complete = walked(slots, result.structuredContent, "structuredContent") && complete;
  for (const key of Object.keys(result)) if (!DEFINED.has(key)) extras[key] = result[key];
  if (Object.keys(extras).length > 0) complete = walked(slots, extras, "result") && complete;
  return complete ? slots : null;
}

/** Scans a result (a copy the caller may change) under `policy`: redacts in place, or says why it blocks or what it flags. */
export function scanResult(result: Record<string, unknown>, policy: McpScanPolicy, tool: string, phoneRegion?: string): ScanOutcome {
  const extras: Record<string, unknown> = {};
  const slots = resultSlots(result, extras);
  const what = `the result of ${tool}`;
  if (!slots) return { action: "blocked", counts: { ...NONE }, reason: `${what} holds content ${TOO_COMPLEX}` };
  const scan = scanSlots(slots, true, phoneRegion ?? "US");
  const { counts } = scan;
  if (counts.injection && policy.injection === "block") return { action: "blocked", counts, reason: because(scan, "injection", what) };
  if (counts.secret && policy.secrets === "block") return { action: "blocked", counts, reason: because(scan, "secret", what) };
  if (counts.pii && policy.pii === "block") return { action: "blocked", counts, reason: because(scan, "pii", what) };
  const redact: Category[] = [];
  if (counts.secret) redact.push("secret");
  if (counts.pii && policy.pii === "redact") redact.push("pii");
  const replaced = redact.length ? redactFindings(scan.bySlot, redact) : 0;
  // The other members as redacted (a member's name may have been replaced).
  if (replaced) {
    for (const key of Object.keys(result)) if (!DEFINED.has(key)) delete result[key];
    Object.assign(result, extras);
  }
  // An injection only suspected is flagged whatever the policy, as on the model path.
  const injectionFlagged = counts.injection > 0 || scan.suspected;
  const flagged = injectionFlagged || (counts.pii > 0 && policy.pii === "flag");
  if (flagged || replaced) {
    const flags = [...(injectionFlagged ? ["injection"] : []), ...(counts.pii && policy.pii === "flag" ? ["pii"] : [])];
    const meta = (result._meta as Record<string, unknown> | undefined) ?? {};
    result._meta = { ...meta, [SCAN_META_KEY]: { flagged: flags, redacted: replaced, counts } };
  }
  return { action: flagged ? "flagged" : replaced ? "redacted" : "passed", counts };
}

/** The tool error an agent receives instead of a blocked result or call: it says why, never what. */
export function blockedResult(reason: string, counts: Record<Category, number>): Record<string, unknown> {
  return {
    content: [{ type: "text", text: `Blocked by the gateway's security policy: ${reason}.` }],
    isError: true,
    _meta: { [SCAN_META_KEY]: { blocked: true, counts } },
  };
}
