/**
 * OAuth client credentials (RFC 6749 section 4.4) for a tool server: a token asked of
 * the server's token endpoint through the egress policy, kept until shortly before it
 * expires. The client secret goes in the request body only, never in a log or error.
 */
import { BodyTooLarge, readTextUpTo } from "../lib/egress/bounded-body.ts";
import { egressFetch } from "../lib/egress/egress-fetch.ts";

/** Renewed this long before the token endpoint says it expires, so a call never carries a stale one. */
const EARLY_RENEWAL_MS = 30_000;
/** When the endpoint gives no lifetime. */
const DEFAULT_LIFETIME_S = 300;
/** The most of a token endpoint's answer read: a real one is a few hundred bytes, and the node's memory is not the endpoint's to fill. */
export const MAX_TOKEN_ANSWER_BYTES = 64 * 1024;
/**
 * The longest a token request may take, answer read included: calls to the server wait on
 * it, and one that never ends (or sends a byte now and then, which keeps an idle timer
 * from firing) would hold every later call's token too.
 */
export const TOKEN_DEADLINE_MS = 30_000;

export interface ClientCredentials {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  scope: string | null;
}

/** Why a token could not be had, without the endpoint's body (which might echo the secret). */
export class TokenRefused extends Error {
  override name = "TokenRefused";
}

export class ClientCredentialsToken {
  private token: { value: string; until: number } | null = null;
  private pending: Promise<string> | null = null;

  constructor(
    private readonly creds: ClientCredentials,
    private readonly now: () => number = Date.now,
    private readonly deadlineMs: number = TOKEN_DEADLINE_MS,
  ) {}

  /** A valid access token, asking for a new one when the last is about to expire. */
  get(): Promise<string> {
    if (this.token && this.token.until > this.now()) return Promise.resolve(this.token.value);
    this.pending ??= this.fetchToken().finally(() => (this.pending = null));
    return this.pending;
  }

  private async fetchToken(): Promise<string> {
    const body = new URLSearchParams({
      grant_type: "client_credentials",
      client_id: this.creds.clientId,
      client_secret: this.creds.clientSecret,
    });
    if (this.creds.scope) body.set("scope", this.creds.scope);
    const signal = AbortSignal.timeout(this.deadlineMs);
    const late = () => new TokenRefused(`the token endpoint did not answer within ${this.deadlineMs} ms`);
    const res = await egressFetch(this.creds.tokenUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body,
      signal,
    }).catch((err) => {
      throw signal.aborted ? late() : err;
    });
    if (!res.ok) {
      await res.body?.cancel().catch(() => {});
      throw new TokenRefused(`the token endpoint answered ${res.status}`);
    }
    const json = (await answerOf(res)) as { access_token?: unknown; expires_in?: unknown } | null;
    if (signal.aborted) throw late();
    if (typeof json?.access_token !== "string" || json.access_token === "")
      throw new TokenRefused("the token endpoint gave no access_token");
    const lifetimeS = typeof json.expires_in === "number" && json.expires_in > 0 ? json.expires_in : DEFAULT_LIFETIME_S;
    // A token that lives less than twice the early renewal is kept half its life, not renewed at once at every request.
    const lifetimeMs = lifetimeS * 1000;
    this.token = { value: json.access_token, until: this.now() + Math.max(lifetimeMs - EARLY_RENEWAL_MS, lifetimeMs / 2) };
    return json.access_token;
  }
}

/** The endpoint's JSON answer (null when it is not JSON), read up to the bound and refused past it. */
async function answerOf(res: Response): Promise<unknown> {
  try {
    return JSON.parse(await readTextUpTo(res, MAX_TOKEN_ANSWER_BYTES));
  } catch (err) {
    if (err instanceof BodyTooLarge) throw new TokenRefused(`the token endpoint's answer is over ${MAX_TOKEN_ANSWER_BYTES} bytes`);
    return null;
  }
}
