/**
 * The egress policy: where the gateway may send a provider call. A provider address
 * must resolve to public addresses only; loopback and private ranges are allowed
 * only when the operator sets GW_ALLOW_PRIVATE_PROVIDERS=1 (the mock, self-hosted
 * models); link-local and metadata addresses never. The check runs at call time,
 * after DNS resolution, and the call then connects to the very address that was
 * checked (the Host header and TLS server name keep the original name), so a DNS
 * answer that changes between the check and the connection (rebinding) cannot
 * redirect it. Redirects are never followed (upstream.ts sends `redirect: "manual"`).
 */
import { lookup } from "node:dns/promises";
import { checkServerIdentity, type PeerCertificate } from "node:tls";
import { type AddressClass, classifyIp } from "./ip-ranges.ts";

export interface EgressPolicy {
  /** Loopback and private ranges allowed (GW_ALLOW_PRIVATE_PROVIDERS=1). */
  allowPrivate: boolean;
}

/** Names that reach metadata services or the host itself whatever DNS says. */
const METADATA_NAMES = new Set(["metadata.google.internal", "metadata.goog", "metadata", "instance-data", "instance-data.ec2.internal"]);

/** How long a checked resolution is reused: Bun's own DNS cache keeps answers as long. */
const RESOLVED_TTL_MS = 30_000;
const MAX_RESOLVED = 1000;

/** A refused or unresolvable target: callers say only "unreachable", whatever the reason. */
export class EgressRefused extends Error {
  override name = "EgressRefused";
  constructor(readonly unresolved = false) {
    super(unresolved ? "does not resolve" : "refused by the egress policy");
  }
}

let policy: EgressPolicy = { allowPrivate: false };

/** Set once by the runtime from the configuration (tests set it for their case). */
export function setEgressPolicy(p: EgressPolicy): void {
  policy = { ...p };
  resolved.clear();
}

function allowed(cls: AddressClass): boolean {
  return cls === "public" || (cls === "private" && policy.allowPrivate);
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
    if (!allowed(literal)) throw new EgressRefused();
    return host;
  }
  const name = host.toLowerCase().replace(/\.$/, "");
  if (METADATA_NAMES.has(name)) throw new EgressRefused();
  if ((name === "localhost" || name.endsWith(".localhost")) && !policy.allowPrivate) throw new EgressRefused();
  const hit = resolved.get(name);
  if (hit && hit.until > now) return hit.address;
  let answers: { address: string }[];
  try {
    answers = await lookup(name, { all: true });
  } catch {
    throw new EgressRefused(true);
  }
  if (answers.length === 0) throw new EgressRefused(true);
  // Every answer must pass: a name that also resolves to a private address is refused, so no answer order can reach it.
  for (const a of answers) if (!allowed(classifyIp(a.address) ?? "forbidden")) throw new EgressRefused();
  const address = (answers[0] as { address: string }).address;
  if (resolved.size >= MAX_RESOLVED) resolved.delete(resolved.keys().next().value as string);
  resolved.set(name, { address: address.includes(":") ? `[${address}]` : address, until: now + RESOLVED_TTL_MS });
  return (resolved.get(name) as Resolved).address;
}

/** What fetch needs to reach a checked address while speaking to the original host. */
export interface PinnedRequest {
  url: string;
  /** The original `host[:port]`, when the URL now names an address. */
  host: string | null;
  tls: { serverName: string; checkServerIdentity: (h: string, cert: PeerCertificate) => Error | undefined } | null;
}

/**
 * Checks `url`'s host against the policy after resolving it, and returns the request
 * pointed at the checked address. Throws EgressRefused.
 */
export async function pinToCheckedAddress(url: string, now = Date.now()): Promise<PinnedRequest> {
  const u = new URL(url);
  const host = u.hostname;
  const address = await checkedAddress(host, now);
  if (address === host) return { url, host: null, tls: null };
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
 * The early check at provider.create/update: false when the address is refused under
 * the current policy. A name that does not resolve now passes: DNS may be down, and
 * the check at call time is the one that counts.
 */
export async function addressAllowed(url: string): Promise<boolean> {
  try {
    await checkedAddress(new URL(url).hostname, Date.now());
    return true;
  } catch (err) {
    if (err instanceof EgressRefused) return err.unresolved;
    throw err;
  }
}
