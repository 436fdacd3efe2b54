/**
 * A real OpenID Connect identity provider in the test process (`oidc-provider`):
 * discovery, signing keys, authorization code flow with PKCE. Its login step is
 * automatic: whoever the test names in `signInAs` is the person at the keyboard.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type ProviderClass from "oidc-provider";

/**
 * Runs `load` with oidc-provider's own warnings dropped: that it runs on Bun, not Node,
 * and with its in-memory store and generated keys, is what a test identity provider is.
 * Any other console output passes through (and fails the test, see test/support/console-guard.ts).
 */
async function withoutProviderWarnings<T>(load: () => T | Promise<T>): Promise<T> {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (!String(args[0]).startsWith("oidc-provider WARNING:")) warn(...args);
  };
  try {
    return await load();
  } finally {
    console.warn = warn;
  }
}

const Provider: typeof ProviderClass = await withoutProviderWarnings(async () => (await import("oidc-provider")).default);

export interface TestIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The account the next login is for, and whether the provider vouches for its e-mail. */
  signInAs(email: string, emailVerified?: boolean): void;
  stop(): Promise<void>;
}

export async function startTestIdp(redirectUris: string[]): Promise<TestIdp> {
  let current = { email: "nobody@example.com", verified: true };
  const verifiedBy = new Map<string, boolean>();
  let handler: (req: any, res: any) => void = (_req, res) => res.end();
  const server: Server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = "gateway-dashboard";
  const clientSecret = "test-client-secret-that-is-long-enough-0123456789";

  const provider = await withoutProviderWarnings(
    () =>
      new Provider(issuer, {
        clients: [
          {
            client_id: clientId,
            client_secret: clientSecret,
            redirect_uris: redirectUris,
            grant_types: ["authorization_code"],
            response_types: ["code"],
          },
        ],
        claims: { openid: ["sub"], email: ["email", "email_verified"] },
        features: { devInteractions: { enabled: false } },
        // Fixed lifetimes (seconds): the defaults are functions that print a notice each time they are called.
        ttl: { Interaction: 600, Grant: 600, Session: 600, AccessToken: 600, IdToken: 600 },
        interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
        async findAccount(_ctx, sub) {
          return { accountId: sub, claims: async () => ({ sub, email: sub, email_verified: verifiedBy.get(sub) ?? true }) };
        },
      }),
  );

  const callback = provider.callback();
  handler = async (req, res) => {
    if (!req.url?.startsWith("/interaction/")) return callback(req, res);
    // The login and consent screens, answered at once for the account the test chose.
    const details = await provider.interactionDetails(req, res);
    const accountId = current.email;
    verifiedBy.set(accountId, current.verified);
    const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
    grant.addOIDCScope(String(details.params.scope));
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
  };

  return {
    issuer,
    clientId,
    clientSecret,
    signInAs(email, emailVerified = true) {
      current = { email, verified: emailVerified };
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
