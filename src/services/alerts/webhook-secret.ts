/**
 * The organization's webhook signing secret: made here, sealed with the master key
 * (bound to the organization), shown to the admin once, opened only to sign.
 */
import { randomBytes } from "node:crypto";
import type { SecretBox } from "../../lib/secret-box.ts";
import type { Store } from "../../store/store.ts";

const aad = (orgId: string) => `webhook-secret:${orgId}`;

export async function rotateWebhookSecret(store: Store, box: SecretBox, orgId: string, now: number): Promise<string> {
  const secret = `whsec_${randomBytes(32).toString("base64url")}`;
  await store.setWebhookSecret(orgId, box.seal(secret, aad(orgId)), now);
  return secret;
}

export async function openWebhookSecret(store: Store, box: SecretBox, orgId: string): Promise<string | null> {
  const sealed = await store.getWebhookSecret(orgId);
  return sealed === null ? null : box.open(sealed, aad(orgId));
}
