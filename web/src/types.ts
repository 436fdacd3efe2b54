/** The API's own shapes, shared with the server (type-only imports: nothing of the server is bundled). */
import type { iso, presentAudit, presentKey, presentServiceAccount, presentUser } from "../../src/ops/present.ts";
import type { DailyUsage } from "../../src/ops/usage-shapes.ts";
import type { AnalyticsAnswer } from "../../src/services/analytics/org-analytics.ts";
import type { WebhookOutcome } from "../../src/services/alerts/delivery-log.ts";
import type {
  Notification as StoredNotification,
  OrgPreferences,
  PersonalPreferences,
  ProviderConfigRecord,
} from "../../src/domain/types.ts";

export type IsoTime = ReturnType<typeof iso>;
export type ApiKey = ReturnType<typeof presentKey>;
export type ServiceAccount = ReturnType<typeof presentServiceAccount> & { apiKeys: ApiKey[] };
export type Member = ReturnType<typeof presentUser>;
export type AuditEntry = ReturnType<typeof presentAudit>;
/** As `provider.*` operations present a provider (presentProvider in src/ops/provider-ops.ts): never the key, only its hint. */
export type Provider = Pick<
  ProviderConfigRecord,
  "id" | "provider" | "name" | "baseUrl" | "country" | "format" | "models" | "limits" | "ownerUserId" | "keyHint"
> & {
  scope: "user" | "organization";
  createdAt: IsoTime;
  updatedAt: IsoTime;
};
export type { DailyUsage };
/** `GET /api/byok/analytics/*`: dollars, not micros. */
export type Analytics = AnalyticsAnswer;
export type Preferences = OrgPreferences & PersonalPreferences;
export type { WebhookOutcome };
/** As `notifications.list` presents a notification (src/ops/notification-ops.ts): `webhook` null when no post was due. */
export type Notification = Pick<StoredNotification, "id" | "kind" | "severity" | "title"> & {
  data: StoredNotification["body"];
  createdAt: string;
  readAt: string | null;
  webhook: WebhookOutcome | null;
};

export interface Me {
  user: { id: string; email: string | null; role: "admin" | "member" };
  organization: { id: string; name: string; tier: string };
  identity: "user" | "serviceAccount";
}
