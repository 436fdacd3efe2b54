/**
 * Notifications: any member reads the organization's alerts and marks them read for
 * themselves (read marks are per reader, so a member's read leaves an admin's alerts
 * unread); an admin makes (or replaces) the webhook signing secret, which is shown only
 * in that answer.
 */
import { Type } from "@sinclair/typebox";
import { actorOf, type Identity } from "../domain/identity.ts";
import { recordAudit } from "../services/audit.ts";
import { rotateWebhookSecret, shownSecret } from "../services/alerts/webhook-secret.ts";
import { webhookOutcomes } from "../services/alerts/delivery-log.ts";
import { defineOperation } from "./registry.ts";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** Whose read marks: the caller as the audit log names them, a user or a service account (its keys share the marks). */
const readerOf = (identity: Identity): string => actorOf(identity, null, null).ref;

export const notificationsList = defineOperation({
  id: "notifications.list",
  access: "read",
  summary:
    "The organization's notifications, newest first (`limit` up to 200, `unreadOnly`), each with the caller's own read mark (`readAt`) and its webhook delivery (`webhook`: delivered, attempts) when one was due.",
  params: Type.Object(
    { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })), unreadOnly: Type.Optional(Type.Boolean()) },
    { additionalProperties: false },
  ),
  async run({ identity, deps }, p) {
    const list = await deps.store.listNotificationsFor(identity.organization.id, readerOf(identity), {
      limit: p.limit ?? 50,
      unreadOnly: p.unreadOnly ?? false,
    });
    const webhooks = await webhookOutcomes(
      deps.store,
      identity.organization.id,
      list.map((n) => n.id),
    );
    return {
      notifications: list.map((n) => ({
        id: n.id,
        kind: n.kind,
        severity: n.severity,
        title: n.title,
        data: n.body,
        createdAt: iso(n.createdAt),
        readAt: iso(n.readAt),
        webhook: webhooks.get(n.id) ?? null,
      })),
      unread: list.filter((n) => n.readAt === null).length,
    };
  },
});

export const notificationsRead = defineOperation({
  id: "notifications.read",
  access: "member-write",
  summary: "Marks notifications read for the caller alone (others' stay as they were): `ids`, or `all: true`.",
  params: Type.Object(
    {
      ids: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 200 })),
      all: Type.Optional(Type.Literal(true)),
    },
    { additionalProperties: false, minProperties: 1, maxProperties: 1 },
  ),
  async run({ identity, deps }, p) {
    const marked = await deps.store.markNotificationsRead(
      identity.organization.id,
      readerOf(identity),
      p.all ? null : (p.ids ?? []),
      deps.now(),
    );
    return { marked };
  },
});

export const webhookSecretRotate = defineOperation({
  id: "org.webhook-secret.rotate",
  access: "admin",
  summary: "Makes a new webhook signing secret for the organization (the old one stops working); shown once.",
  params: Type.Object({}, { additionalProperties: false }),
  async run({ identity, actor, deps }) {
    const orgId = identity.organization.id;
    const secret = await rotateWebhookSecret(deps.store, deps.box, orgId, deps.now());
    await recordAudit(deps.store, orgId, actor, "webhook-secret.rotate", orgId, {}, deps.now());
    return shownSecret(secret);
  },
});

export const notificationOperations = [notificationsList, notificationsRead, webhookSecretRotate];
