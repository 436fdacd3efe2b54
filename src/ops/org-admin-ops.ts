/** `org.*` operations the dashboard's admin pages need: members' roles and removal, service-account deletion, key rotation (admin only). */
import { Type } from "@sinclair/typebox";
import { changeMemberRole, deleteServiceAccount, MAX_ROTATION_GRACE_S, removeMember, rotateKey } from "../services/org-admin.ts";
import { iso, presentKey, presentUser } from "./present.ts";
import { defineOperation } from "./registry.ts";

const Id = Type.String({ minLength: 1, maxLength: 100 });

export const removeMemberOp = defineOperation({
  id: "org.member.remove",
  access: "admin",
  summary:
    "Removes a member; their sessions end at once and their personal providers stop serving (listed as disabled until an admin deletes them with provider.delete). Service accounts they created keep working. The last admin cannot be removed.",
  params: Type.Object({ userId: Id }),
  async run({ identity, actor, deps }, p) {
    const r = await removeMember(deps, actor, identity.organization.id, p.userId);
    return {
      ...r,
      next:
        r.providersDisabled.length === 0
          ? "Nothing else to do: the member had no personal providers."
          : "The providers listed stopped serving; provider.list shows them as disabled. Delete each with provider.delete once you have checked nothing depends on it.",
    };
  },
});

export const changeMemberRoleOp = defineOperation({
  id: "org.member.update-role",
  access: "admin",
  summary: "Makes a member admin or member. The last admin cannot be demoted.",
  params: Type.Object({ userId: Id, role: Type.Union([Type.Literal("admin"), Type.Literal("member")]) }),
  async run({ identity, actor, deps }, p) {
    return { user: presentUser(await changeMemberRole(deps, actor, identity.organization.id, p.userId, p.role)) };
  },
});

export const deleteServiceAccountOp = defineOperation({
  id: "org.service-account.delete",
  access: "admin",
  summary: "Deletes a service account and all its keys; they are refused from that moment.",
  params: Type.Object({ serviceAccountId: Id }),
  async run({ identity, actor, deps }, p) {
    return deleteServiceAccount(deps, actor, identity.organization.id, p.serviceAccountId);
  },
});

export const rotateApiKeyOp = defineOperation({
  id: "org.api-key.rotate",
  access: "admin",
  summary:
    "Issues a new key for the same service account (value in this response only); the old key stops now or after `gracePeriodSeconds`.",
  params: Type.Object({ keyId: Id, gracePeriodSeconds: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_ROTATION_GRACE_S })) }),
  async run({ identity, actor, deps }, p) {
    const r = await rotateKey(deps, actor, identity.organization.id, p.keyId, p.gracePeriodSeconds ?? 0);
    return {
      apiKey: { ...presentKey(r.apiKey), key: r.keyValue },
      previous: { keyId: r.previous.keyId, revokedAt: iso(r.previous.revokedAt) },
    };
  },
});

export const orgAdminOperations = [removeMemberOp, changeMemberRoleOp, deleteServiceAccountOp, rotateApiKeyOp];
