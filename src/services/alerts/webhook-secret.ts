/**
 * The organization's webhook signing secret: made here, sealed with the master key
 * (bound to the organization), shown to the admin once, opened only to sign.
 */
import { randomBytes } from "node:crypto";
import type { SecretBox } from "../../lib/secret-box.ts";
import type { Store } from "../../store/store.ts";
import { SIGNATURE_HEADER, TIMESTAMP_HEADER } from "./webhook-signature.ts";

const aad = (orgId: string) => `webhook-secret:${orgId}`;

export async function rotateWebhookSecret(store: Store, box: SecretBox, orgId: string, now: number): Promise<string> {
  const secret = `whsec_${randomBytes(32).toString("base64url")}`;
  await store.setWebhookSecret(orgId, box.seal(secret, aad(orgId)), now);
  return secret;
}

/**
 * A secret for an organization that has none, made when an admin first sets a webhook
 * URL (unsigned posts are never sent, so without one the URL would silently receive
 * nothing): the new secret, to be shown once, or null when one exists already.
 */
export async function ensureWebhookSecret(store: Store, box: SecretBox, orgId: string, now: number): Promise<string | null> {
  if ((await store.getWebhookSecret(orgId)) !== null) return null;
  return rotateWebhookSecret(store, box, orgId, now);
}

export async function openWebhookSecret(store: Store, box: SecretBox, orgId: string): Promise<string | null> {
  const sealed = await store.getWebhookSecret(orgId);
  return sealed === null ? null : box.open(sealed, aad(orgId));
}

/** How a new secret is shown, the one time it is: the secret and how receivers check a post with it. */
export function shownSecret(secret: string) {
  return {
    secret,
    shownOnce: true,
    signature: {
      header: SIGNATURE_HEADER,
      timestampHeader: TIMESTAMP_HEADER,
      algorithm: "HMAC-SHA256 over `<timestamp>.<body>`, hex, prefixed sha256=",
    },
  };
}
