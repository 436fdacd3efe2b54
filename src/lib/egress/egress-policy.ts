/**
 * The egress policy: which addresses the gateway may reach out to, for every outbound
 * URL (provider base URLs, alert webhooks, the OIDC issuer, MCP servers named in
 * tools). A URL must be http(s) and resolve to public addresses only; loopback and
 * private ranges are allowed only when the operator sets GW_ALLOW_PRIVATE_EGRESS=1
 * (the mock, self-hosted models, an in-house identity provider); link-local, metadata,
 * unspecified and multicast addresses never. Checked when an address is saved
 * (`checkEgressUrl`) and again at connection time (egress-fetch.ts), after DNS
 * resolution, and the connection then goes to the very address that was checked, so
 * a DNS answer that changes in between (rebinding) cannot redirect it.
 */
import { lookup } from "node:dns/promises";
import { checkServerIdentity, type PeerCertificate } from "node:tls";
import { type AddressClass, classifyIp } from "./ip-ranges.ts";

export interface EgressPolicy {
  /** Loopback and private ranges allowed (GW_ALLOW_PRIVATE_EGRESS=1). */
  allowPrivate: boolean;
}

/** The setting a refusal names, so whoever reads it knows what the operator can change. */
export const PRIVATE_EGRESS_SETTING = "GW_ALLOW_PRIVATE_EGRESS=1";

/** Names that reach metadata services or the host itself whatever DNS says. */
const METADATA_NAMES = new Set(["metadata.google.internal", "metadata.goog", "metadata", "instance-data", "instance-data.ec2.internal"]);

/** How long a checked resolution is reused: Bun's own DNS cache keeps answers as long. */
const RESOLVED_TTL_MS = 30_000;
const MAX_RESOLVED = 1000;

/** Why an address is refused: private (allowed by the setting), forbidden (never), not resolvable, or not http(s). */
export type RefusalReason = "private" | "forbidden" | "unresolved" | "scheme";

/** A refused or unresolvable target. Callers that relay a connection failure say only "unreachable", whatever the reason. */
export class EgressRefused extends Error {
  override name = "EgressRefused";
  constructor(readonly reason: RefusalReason) {
    super(reason === "unresolved" ? "does not resolve" : "refused by the egress policy");
  }

  get unresolved(): boolean {
    return this.reason === "unresolved";
  }
}

let policy: EgressPolicy = { allowPrivate: false };

/** Set once by the runtime from the configuration (tests set it for their case). */
export function setEgressPolicy(p: EgressPolicy): void {
  policy = { ...p };
  resolved.clear();
  pinned.clear();
}

function verdict(cls: AddressClass): RefusalReason | null {
  if (cls === "public" || (cls === "private" && policy.allowPrivate)) return null;
  return cls === "private" ? "private" : "forbidden";
}

interface Resolved {
  address: string;
  until: number;
}

/** Hostname -> an address that passed the policy, for RESOLVED_TTL_MS. */
const resolved = new Map<string, Resolved>();

/** The address to connect to for `host`, every resolved address checked; throws EgressRefused. */
async function checkedAddress(host: string, now: number): Promise<string> {
  const literal = classifyIp(host);
  if (literal !== null) {
    const refused = verdict(literal);
    if (refused) throw new EgressRefused(refused);
    return host;
  }
  const name = host.toLowerCase().replace(/\.$/, "");
  if (METADATA_NAMES.has(name)) throw new EgressRefused("forbidden");
  if ((name === "localhost" || name.endsWith(".localhost")) && !policy.allowPrivate) throw new EgressRefused("private");
  const hit = resolved.get(name);
  if (hit && hit.until > now) return hit.address;
  let answers: { address: string }[];
  try {
    answers = await lookup(name, { all: true });
  } catch {
    throw new EgressRefused("unresolved");
  }
  if (answers.length === 0) throw new EgressRefused("unresolved");
  // Every answer must pass: a name that also resolves to a private address is refused, so no answer order can reach it.
  for (const a of answers) {
    const refused = verdict(classifyIp(a.address) ?? "forbidden");
    if (refused) throw new EgressRefused(refused);
  }
  const address = (answers[0] as { address: string }).address;
  if (resolved.size >= MAX_RESOLVED) resolved.delete(resolved.keys().next().value as string);
  resolved.set(name, { address: address.includes(":") ? `[${address}]` : address, until: now + RESOLVED_TTL_MS });
  return (resolved.get(name) as Resolved).address;
}

function parsedHttpUrl(url: string | URL): URL {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new EgressRefused("scheme");
  }
  // fetch also opens file: and data: URLs; only the network is the policy's to allow.
  if (u.protocol !== "http:" && u.protocol !== "https:") throw new EgressRefused("scheme");
  return u;
}

/** What fetch needs to reach a checked address while speaking to the original host. */
export interface PinnedRequest {
  url: string;
  /** The original `host[:port]`, when the URL now names an address. */
  host: string | null;
  tls: { serverName: string; checkServerIdentity: (h: string, cert: PeerCertificate) => Error | undefined } | null;
}

/**
 * The requests already pinned, by the URL asked for: a provider's calls go to a handful
 * of URLs, and each call would otherwise parse its URL and classify its address again
 * (about a microsecond, and a turn of the event loop before the request leaves). Kept
 * no longer than the resolution it rests on; a literal address's until the policy changes.
 */
const pinned = new Map<string, { pin: PinnedRequest; until: number }>();

/** The pinned request for `url` when one was checked under this policy and is still fresh; else null. */
export function cachedPin(url: string, now = Date.now()): PinnedRequest | null {
  const hit = pinned.get(url);
  return hit !== undefined && hit.until > now ? hit.pin : null;
}

/**
 * Checks `url`'s host against the policy after resolving it, and returns the request
 * pointed at the checked address. Throws EgressRefused.
 */
export async function pinToCheckedAddress(url: string | URL, now = Date.now()): Promise<PinnedRequest> {
  const u = parsedHttpUrl(url);
  const host = u.hostname;
  const address = await checkedAddress(host, now);
  const pin = pinFor(u, host, address);
  // A literal address needs no resolution: its verdict holds until the policy changes.
  const until = address === host ? Number.POSITIVE_INFINITY : (resolved.get(host.toLowerCase().replace(/\.$/, ""))?.until ?? now);
  if (pinned.size >= MAX_RESOLVED) pinned.delete(pinned.keys().next().value as string);
  pinned.set(typeof url === "string" ? url : url.href, { pin, until });
  return pin;
}

function pinFor(u: URL, host: string, address: string): PinnedRequest {
  if (address === host) return { url: u.href, host: null, tls: null };
  const original = u.host;
  u.hostname = address;
  const name = host.replace(/\.$/, "");
  return {
    url: u.href,
    host: original,
    // The certificate is checked against the name asked for, not the address connected to.
    tls: u.protocol === "https:" ? { serverName: name, checkServerIdentity: (_h, cert) => checkServerIdentity(name, cert) } : null,
  };
}

/**
 * The check when an address is saved (a provider's base URL, a webhook, a tool
 * server): null when it may be used, else the reason in words, naming the setting
 * where the operator could allow it. A name that does not resolve now passes: DNS may
 * be down, and the check at connection time is the one that counts.
 */
export async function checkEgressUrl(url: string): Promise<string | null> {
  try {
    await checkedAddress(parsedHttpUrl(url).hostname, Date.now());
    return null;
  } catch (err) {
    if (!(err instanceof EgressRefused)) throw err;
    return err.unresolved ? null : refusalText(err.reason);
  }
}

/** A refusal in words: what kind of address it is, and whether a setting allows it. */
export function refusalText(reason: RefusalReason): string {
  switch (reason) {
    case "private":
      return `it is on a loopback or private network, which the gateway reaches only when the operator sets ${PRIVATE_EGRESS_SETTING}`;
    case "forbidden":
      return `it is a link-local, metadata, unspecified or multicast address, which the gateway never reaches (not even with ${PRIVATE_EGRESS_SETTING})`;
    case "scheme":
      return "only http and https URLs are allowed";
    case "unresolved":
      return "its name does not resolve";
  }
}
