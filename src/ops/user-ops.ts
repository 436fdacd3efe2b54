/** `user.*` operations: who am I, and my (and my organization's) preferences. */
import { Type } from "@sinclair/typebox";
import { ApiError } from "../lib/errors.ts";
import { type Preferences, readPreferences, updatePreferences } from "../services/preferences.ts";
import { DOMAIN_PATTERN } from "../services/sign-in-domains.ts";
import { ensureWebhookSecret, shownSecret } from "../services/alerts/webhook-secret.ts";
import { recordAudit } from "../services/audit.ts";
import { MIN_ALERT_CHECK_INTERVAL_S } from "../services/alerts/alert-checker.ts";
import type { Identity } from "../domain/identity.ts";
import { refusal } from "./access.ts";
import { defineOperation } from "./registry.ts";
import { MAX_TARGETS } from "../pipeline/route-plan.ts";
import { ModelName } from "../schemas/names.ts";
import { isPhoneRegion } from "../pipeline/scan/phone-numbers.ts";

const Cents = Type.Integer({ minimum: 0, maximum: 1e12 });

const PreferencesPatch = Type.Object(
  {
    monthlyBudgetCents: Type.Optional(Type.Union([Cents, Type.Null()])),
    piiAction: Type.Optional(Type.Union([Type.Literal("redact"), Type.Literal("block")])),
    alertWebhookUrl: Type.Optional(Type.Union([Type.String({ pattern: "^https?://\\S+$", maxLength: 2000 }), Type.Null()])),
    defaultRouteStrategy: Type.Optional(
      Type.Union([Type.Literal("cost"), Type.Literal("speed"), Type.Literal("quality"), Type.Literal("balanced")]),
    ),
    fallbackModels: Type.Optional(
      Type.Record(ModelName, Type.Array(ModelName, { minItems: 1, maxItems: MAX_TARGETS - 1 }), {
        maxProperties: 200,
        additionalProperties: false,
      }),
    ),
    signInEmailDomains: Type.Optional(
      Type.Array(Type.String({ pattern: DOMAIN_PATTERN, maxLength: 253 }), {
        maxItems: 20,
        uniqueItems: true,
      }),
    ),
    contextOptimizer: Type.Optional(Type.Boolean()),
    alertCheckIntervalS: Type.Optional(Type.Union([Type.Integer({ minimum: MIN_ALERT_CHECK_INTERVAL_S, maximum: 86_400 }), Type.Null()])),
    // The scanner's action per category; scanning itself cannot be turned off (secrets always block).
    security: Type.Optional(
      Type.Object(
        {
          injection: Type.Optional(Type.Union([Type.Literal("block"), Type.Literal("flag")])),
          secrets: Type.Optional(Type.Literal("block")),
          pii: Type.Optional(Type.Union([Type.Literal("redact"), Type.Literal("block")])),
        },
        { additionalProperties: false },
      ),
    ),
    phoneRegion: Type.Optional(Type.String({ pattern: "^[A-Z]{2}$" })),
    timezone: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    emailNotifications: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

function checkTimezone(tz: string | undefined): void {
  if (tz === undefined) return;
  try {
    new Intl.DateTimeFormat("en", { timeZone: tz });
  } catch {
    throw new ApiError(400, "invalid_request", `params.set.timezone: "${tz.slice(0, 64)}" is not an IANA time zone`, {
      param: "params.set.timezone",
    });
  }
}

function checkPhoneRegion(region: string | undefined): void {
  if (region === undefined || isPhoneRegion(region)) return;
  throw new ApiError(
    400,
    "invalid_request",
    `params.set.phoneRegion: "${region}" is not a region with a numbering plan (ISO 3166 alpha-2)`,
    {
      param: "params.set.phoneRegion",
    },
  );
}

export const userMe = defineOperation({
  id: "user.me",
  access: "read",
  summary: "The caller: user or service account, role and organization.",
  params: Type.Object({}),
  async run({ identity, deps }) {
    const organization = { id: identity.organization.id, name: identity.organization.name, tier: identity.organization.tier };
    if (identity.kind === "user") {
      const u = identity.user;
      return { user: { id: u.id, email: u.email, role: u.role }, organization, identity: "user" };
    }
    const sa = identity.serviceAccount;
    const creator = sa.createdBy ? await deps.store.getUser(sa.createdBy) : null;
    return {
      user: { id: sa.id, email: creator?.email ?? null, role: sa.role },
      serviceAccount: { id: sa.id, name: sa.name, createdBy: sa.createdBy, keyId: identity.key.id, keyType: identity.key.keyType },
      organization,
      identity: "serviceAccount",
    };
  },
});

/**
 * The alert webhook's address is a credential at most receivers (a chat tool's incoming
 * webhook URL posts to its channel): whoever may not change it (a member, a sandbox
 * key) sees only where it goes.
 */
function shownTo(identity: Identity, prefs: Preferences): Preferences {
  const url = prefs.alertWebhookUrl;
  if (!url || refusal("admin", identity) === null) return prefs;
  let origin: string | null;
  try {
    origin = new URL(url).origin;
  } catch {
    origin = null;
  }
  return { ...prefs, alertWebhookUrl: origin && `${origin}/…` };
}

export const userPreferences = defineOperation({
  id: "user.preferences",
  access: { param: "set", absent: "read", present: "member-write" },
  summary: "Reads preferences; with `set`, updates them first (organization keys need role admin).",
  params: Type.Object({ set: Type.Optional(PreferencesPatch) }),
  async run({ identity, actor, deps }, params) {
    if (!params.set) return shownTo(identity, await readPreferences(deps, identity));
    const patch = params.set;
    checkTimezone(patch.timezone);
    checkPhoneRegion(patch.phoneRegion);
    const prefs = shownTo(identity, await updatePreferences(deps, identity, actor, patch));
    if (!patch.alertWebhookUrl) return prefs;
    // A webhook URL without a signing secret would receive nothing: the first one comes with it, shown once here, as webhook senders do.
    const orgId = identity.organization.id;
    const secret = await ensureWebhookSecret(deps.store, deps.box, orgId, deps.now());
    if (secret === null) return prefs;
    await recordAudit(deps.store, orgId, actor, "webhook-secret.create", orgId, {}, deps.now());
    return { ...prefs, webhookSecret: shownSecret(secret) };
  },
});

export const userOperations = [userMe, userPreferences];
