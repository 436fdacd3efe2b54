/**
 * Stage 2: who is calling. An API key (`Authorization: Bearer`, or `x-api-key` as the
 * messages clients send it) is hashed and looked up in the key cache, memory first.
 * A dashboard session cookie is the other credential; browser calls that change
 * state must also come from our own origin. A tool grant (a provider calling back for
 * a hosted `mcp` tool) is a third, taken only where a route declares it: it stands
 * for the key or session that made the model call, which must still be valid.
 */
import { apiKeyType, type ApiKeyHasher } from "../domain/api-key.ts";
import type { KeyPrincipal } from "../domain/types.ts";
import type { ToolGrant } from "../domain/mcp-records.ts";
import { ApiError, unauthorized } from "../lib/errors.ts";
import { isBlank } from "./scan/trigger-chars.ts";
import type { Identity } from "../domain/identity.ts";
import { authenticateSession, presentedSession, sessionIdentity } from "../services/sessions.ts";
import { isToolGrantToken, type ToolGrantTokens } from "../services/tool-grant-tokens.ts";
import type { Store } from "../store/store.ts";

export interface KeyLookup {
  get(keyHash: string): KeyPrincipal | null | Promise<KeyPrincipal | null>;
}

export interface AuthenticatorDeps {
  hasher: ApiKeyHasher;
  keys: KeyLookup;
  store: Store;
  /** Origins a browser may send state-changing calls from, besides the request's own host. */
  trustedOrigins: string[];
  /** The public URL is https: the session cookie is `__Host-gw_session` and no other. */
  secureCookies: boolean;
  now: () => number;
  /** Opens tool-grant tokens; without it none is accepted. */
  grants?: ToolGrantTokens;
}

/** A session call that changes state without our own Origin: refused, unless it turns out to be read-only. */
export class OriginRequired extends ApiError {
  constructor() {
    super(403, "forbidden", "Cross-site request refused: state-changing browser calls must come from the gateway's own origin.");
  }
}

/** The API key a request carries, or null; an `Authorization` header that is not a bearer token gives "" (an invalid key). */
export function presentedKey(headers: Headers): string | null {
  const auth = headers.get("authorization");
  if (auth !== null) return bearerToken(auth);
  return headers.get("x-api-key");
}

const BEARER = "bearer";
const SPACE = 32;
const TAB = 9;

/**
 * `Bearer <token>`: the scheme in any case, then spaces or tabs, the token (no whitespace
 * in it), spaces or tabs to the end; the token, else "". What `/^Bearer[ \t]+(\S+)[ \t]*$/i`
 * matches, read by hand: every call reads it, and after a pause an expression's compiled
 * code is one more thing to bring back.
 */
export function bearerToken(auth: string): string {
  const n = auth.length;
  // The scheme's letters, either case (`| 0x20` makes an ASCII capital its small letter, and nothing else one of these).
  for (let i = 0; i < BEARER.length; i++) if ((auth.charCodeAt(i) | 0x20) !== BEARER.charCodeAt(i)) return "";
  let i = BEARER.length;
  if (i >= n || (auth.charCodeAt(i) !== SPACE && auth.charCodeAt(i) !== TAB)) return "";
  while (i < n && (auth.charCodeAt(i) === SPACE || auth.charCodeAt(i) === TAB)) i++;
  const start = i;
  while (i < n && !isBlank(auth.charCodeAt(i))) i++;
  if (i === start) return "";
  const end = i;
  while (i < n && (auth.charCodeAt(i) === SPACE || auth.charCodeAt(i) === TAB)) i++;
  return i === n ? auth.slice(start, end) : "";
}

const REVOKED = () => unauthorized("This API key has been revoked.");

const GRANT_ELSEWHERE = () =>
  unauthorized(
    "A tool-grant token is accepted only at /mcp, by the provider of the model call it was issued to; use your gateway key here.",
  );

const GRANT_REFUSED = () =>
  unauthorized("This tool-grant token has expired or is not valid: the model call it was issued to must be made again.");

function identityOf(p: KeyPrincipal): Identity {
  return {
    kind: "serviceAccount",
    id: p.serviceAccount.id,
    role: p.serviceAccount.role,
    organization: p.organization,
    serviceAccount: p.serviceAccount,
    key: p.key,
  };
}

export class Authenticator {
  constructor(private readonly deps: AuthenticatorDeps) {}

  /**
   * Resolves the caller or throws 401 (403 for a cross-site browser call). `readOnly`:
   * the caller showed the call changes nothing, so a session without `Origin` (a
   * plain `curl -b`) may make it; a cross-site `Origin` is refused all the same.
   */
  authenticate(request: Request, readOnly = false): Identity | Promise<Identity> {
    const key = presentedKey(request.headers);
    if (key !== null) return this.byKey(key);
    const session = presentedSession(request.headers, this.deps.secureCookies);
    if (session !== null) return this.bySession(request, session, readOnly);
    throw unauthorized("Missing credentials: send your gateway key as `Authorization: Bearer <key>` or `x-api-key`.");
  }

  /**
   * As `authenticate`, and also a tool grant: for the routes that declare they take one
   * (`/mcp`). The grant's holder is checked as its own credential would be (a revoked
   * key or an ended session ends its grants) and must belong to the grant's organization.
   */
  async authenticateOrGrant(request: Request): Promise<{ identity: Identity; grant: ToolGrant | null }> {
    const key = presentedKey(request.headers);
    if (key === null || !isToolGrantToken(key)) return { identity: await this.authenticate(request), grant: null };
    const claims = this.deps.grants?.open(key);
    if (!claims) throw GRANT_REFUSED();
    const identity =
      claims.holder.kind === "key"
        ? this.check(await this.deps.keys.get(claims.holder.keyHash))
        : await sessionIdentity(this.deps.store, claims.holder.sessionIdHash, this.deps.now());
    if (!identity || identity.organization.id !== claims.orgId) throw GRANT_REFUSED();
    return { identity, grant: claims.grant };
  }

  private byKey(value: string): Identity | Promise<Identity> {
    if (isToolGrantToken(value)) throw GRANT_ELSEWHERE();
    if (apiKeyType(value) === null) throw unauthorized("Invalid API key.");
    const found = this.deps.keys.get(this.deps.hasher.hash(value));
    if (found instanceof Promise) return found.then((p) => this.check(p));
    return this.check(found);
  }

  private check(p: KeyPrincipal | null): Identity {
    if (p === null) throw unauthorized("Invalid API key.");
    // A rotated key may be revoked at a future moment (its grace period); it works until then.
    if (p.key.revokedAt !== null && p.key.revokedAt <= this.deps.now()) throw REVOKED();
    return identityOf(p);
  }

  private async bySession(request: Request, sessionId: string, readOnly: boolean): Promise<Identity> {
    const safe = request.method === "GET" || request.method === "HEAD" || (readOnly && request.headers.get("origin") === null);
    if (!safe && !fromOwnOrigin(request, this.deps.trustedOrigins)) throw new OriginRequired();
    const identity = await authenticateSession(this.deps.store, sessionId, this.deps.now());
    if (!identity) throw unauthorized("Your session has ended; sign in again.");
    return identity;
  }
}

/** Whether a browser request comes from our own origin (the request's host, or a trusted one such as the public URL's). */
export function fromOwnOrigin(request: Request, trustedOrigins: readonly string[]): boolean {
  const origin = request.headers.get("origin");
  if (!origin) return false;
  if (trustedOrigins.includes(origin)) return true;
  const host = request.headers.get("host");
  return host !== null && (origin === `http://${host}` || origin === `https://${host}`);
}
