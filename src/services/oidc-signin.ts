/**
 * Dashboard sign-in through an OpenID Connect identity provider: authorization code
 * flow with PKCE, state and nonce, done by `openid-client` (discovery, the token
 * exchange and every ID-token check are the library's, never ours). Every request the
 * library makes (discovery, keys, token, user info) goes through the egress fetch, so
 * the issuer's addresses pass the same egress policy as every other outbound URL.
 *
 * The per-attempt secrets (PKCE verifier, state, nonce) travel in a short-lived cookie
 * sealed with AES-GCM under a key derived from the master key, so any gateway node can
 * finish a sign-in another node started, and nothing is stored for abandoned attempts.
 */
import * as oidc from "openid-client";
import type { Config } from "../config.ts";
import { egressFetch } from "../lib/egress/egress-fetch.ts";
import { EgressRefused, refusalText } from "../lib/egress/egress-policy.ts";
import { ApiError } from "../lib/errors.ts";
import type { SecretBox } from "../lib/secret-box.ts";

export const SIGN_IN_TTL_MS = 10 * 60 * 1000;
const SEAL_CONTEXT = "oidc-sign-in";

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** What the identity provider vouched for. */
export interface VerifiedEmail {
  email: string;
  /** The `email_verified` claim; null when the provider does not send it (Entra ID, for one). */
  emailVerified: boolean | null;
  subject: string;
}

interface PendingSignIn {
  verifier: string;
  state: string;
  nonce: string;
  expiresAt: number;
}

/** A sign-in that failed for a reason the user can read (400 page, never a 500). */
export class SignInFailed extends ApiError {
  constructor(message: string) {
    super(400, "invalid_request", message);
  }
}

export class OidcSignIn {
  private discovered: Promise<oidc.Configuration> | null = null;

  constructor(
    private readonly settings: OidcSettings,
    /** Seals with associated data of its own, so nothing sealed for another purpose opens here. */
    private readonly box: SecretBox,
    private readonly now: () => number,
  ) {}

  /** Discovery once; a failed discovery is retried by the next sign-in rather than remembered. */
  private configuration(): Promise<oidc.Configuration> {
    if (!this.discovered) {
      const { issuer, clientId, clientSecret } = this.settings;
      // Plain http is accepted only for an http issuer the operator configured (a local test IdP).
      const execute = issuer.startsWith("http:") ? [oidc.allowInsecureRequests] : [];
      // The configuration keeps the custom fetch for every later request (keys, token, user info).
      const options = { execute, [oidc.customFetch]: egressFetch };
      this.discovered = oidc.discovery(new URL(issuer), clientId, clientSecret, undefined, options).catch((err) => {
        this.discovered = null;
        const refused = egressRefusal(err);
        throw new ApiError(
          503,
          "service_unavailable",
          refused
            ? `The identity provider at ${issuer} is not allowed: ${refusalText(refused.reason)}.`
            : `The identity provider at ${issuer} could not be reached or described itself wrongly (${(err as Error).message}).`,
        );
      });
    }
    return this.discovered;
  }

  /**
   * The identity provider URL to send the browser to, and the sealed secrets for the cookie.
   * `redirectUri` is where the provider sends the browser back (`<public url>/signup/callback`).
   */
  async start(redirectUri: string): Promise<{ url: string; sealed: string }> {
    const config = await this.configuration();
    const pending: PendingSignIn = {
      verifier: oidc.randomPKCECodeVerifier(),
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      expiresAt: this.now() + SIGN_IN_TTL_MS,
    };
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: "openid email",
      code_challenge: await oidc.calculatePKCECodeChallenge(pending.verifier),
      code_challenge_method: "S256",
      state: pending.state,
      nonce: pending.nonce,
    });
    return { url: url.href, sealed: this.box.seal(JSON.stringify(pending), SEAL_CONTEXT) };
  }

  /**
   * Finishes the flow from the callback URL as the browser saw it (the redirect URI plus the
   * provider's query); throws SignInFailed with the reason in words.
   */
  async finish(callbackUrl: URL, sealed: string | null): Promise<VerifiedEmail> {
    const pending = this.openPending(sealed);
    const providerError = callbackUrl.searchParams.get("error");
    if (providerError) {
      const description = callbackUrl.searchParams.get("error_description") ?? "";
      throw new SignInFailed(
        `The identity provider refused the sign-in: ${providerError.slice(0, 100)} ${description.slice(0, 200)}`.trim(),
      );
    }
    const config = await this.configuration();
    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: pending.verifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
    } catch (err) {
      throw new SignInFailed(`The sign-in could not be verified (${(err as Error).message}). Start again from the sign-in page.`);
    }
    const idToken = tokens.claims();
    if (!idToken) throw new SignInFailed("The identity provider returned no ID token.");
    let claims: Record<string, unknown> = { ...idToken };
    // Providers that follow the specification strictly put scope claims in the UserInfo
    // response only; the library checks that it answers for the same subject.
    if (typeof claims.email !== "string") {
      try {
        claims = await oidc.fetchUserInfo(config, tokens.access_token, idToken.sub);
      } catch (err) {
        throw new SignInFailed(`The identity provider's user information could not be read (${(err as Error).message}).`);
      }
    }
    const email = typeof claims.email === "string" ? claims.email.trim().toLowerCase() : "";
    if (!email) throw new SignInFailed("The identity provider did not share an e-mail address; allow the `email` scope for this client.");
    return { email, emailVerified: typeof claims.email_verified === "boolean" ? claims.email_verified : null, subject: idToken.sub };
  }

  private openPending(sealed: string | null): PendingSignIn {
    if (!sealed)
      throw new SignInFailed(
        "This sign-in was not started in this browser, or took longer than 10 minutes. Start again from the sign-in page.",
      );
    let pending: PendingSignIn;
    try {
      pending = JSON.parse(this.box.open(sealed, SEAL_CONTEXT)) as PendingSignIn;
    } catch {
      throw new SignInFailed("The sign-in cookie is not one this gateway issued. Start again from the sign-in page.");
    }
    if (pending.expiresAt <= this.now())
      throw new SignInFailed("This sign-in took longer than 10 minutes. Start again from the sign-in page.");
    return pending;
  }
}

/** The policy's refusal, whether the library passed it on as it was or wrapped it. */
function egressRefusal(err: unknown): EgressRefused | null {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) if (e instanceof EgressRefused) return e;
  return null;
}

/** The configured sign-in, or null when GW_OIDC_* is not set (config checks they come together). */
export function oidcSignInFrom(
  config: Pick<Config, "oidcIssuer" | "oidcClientId" | "oidcClientSecret">,
  box: SecretBox,
  now: () => number,
): OidcSignIn | null {
  const { oidcIssuer: issuer, oidcClientId: clientId, oidcClientSecret: clientSecret } = config;
  if (!issuer || !clientId || !clientSecret) return null;
  return new OidcSignIn({ issuer, clientId, clientSecret }, box, now);
}
