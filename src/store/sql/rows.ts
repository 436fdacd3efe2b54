/** Row <-> record mapping for the SQL stores: snake_case columns, JSON text, integer times. */
import type {
  ApiKeyRecord,
  AuditEntry,
  EtlDocument,
  KeyType,
  MemberInvitation,
  Notification,
  Organization,
  ProviderConfigRecord,
  ProviderFormat,
  ReaderNotification,
  Role,
  ServiceAccount,
  Session,
  Tier,
  UsageEvent,
  UsageHourly,
  User,
  WebhookDelivery,
} from "../../domain/types.ts";

export type Row = Record<string, unknown>;

const num = (v: unknown): number => Number(v);
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const str = (v: unknown): string => String(v);
const strOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

export const toOrganization = (r: Row): Organization => ({
  id: str(r.id),
  name: str(r.name),
  tier: r.tier as Tier,
  createdAt: num(r.created_at),
});

export const toUser = (r: Row): User => ({
  id: str(r.id),
  orgId: str(r.org_id),
  email: str(r.email),
  role: r.role as Role,
  createdAt: num(r.created_at),
});

export const toInvitation = (r: Row): MemberInvitation => ({
  orgId: str(r.org_id),
  email: str(r.email),
  role: r.role as Role,
  createdAt: num(r.created_at),
  expiresAt: num(r.expires_at),
  acceptedAt: numOrNull(r.accepted_at),
});

export const toServiceAccount = (r: Row, prefix = ""): ServiceAccount => ({
  id: str(r[`${prefix}id`]),
  orgId: str(r[`${prefix}org_id`]),
  name: str(r[`${prefix}name`]),
  description: str(r[`${prefix}description`]),
  role: r[`${prefix}role`] as Role,
  createdBy: strOrNull(r[`${prefix}created_by`]),
  createdAt: num(r[`${prefix}created_at`]),
});

export const toApiKey = (r: Row): ApiKeyRecord => ({
  id: str(r.id),
  orgId: str(r.org_id),
  serviceAccountId: str(r.service_account_id),
  name: str(r.name),
  keyHash: str(r.key_hash),
  keyPrefix: str(r.key_prefix),
  keyType: r.key_type as KeyType,
  proxyMode: str(r.proxy_mode),
  spendCapCents: numOrNull(r.spend_cap_cents),
  monthlyCapCents: numOrNull(r.monthly_cap_cents),
  spentMicros: num(r.spent_micros),
  ...(r.spend_key_id ? { spendKeyId: str(r.spend_key_id) } : {}),
  requestCount: num(r.request_count),
  lastUsedAt: numOrNull(r.last_used_at),
  createdAt: num(r.created_at),
  revokedAt: numOrNull(r.revoked_at),
  revokedReason: strOrNull(r.revoked_reason),
});

export const toSession = (r: Row): Session => ({
  idHash: str(r.id_hash),
  userId: str(r.user_id),
  createdAt: num(r.created_at),
  lastSeenAt: num(r.last_seen_at),
});

export const toAudit = (r: Row): AuditEntry => ({
  id: str(r.id),
  orgId: str(r.org_id),
  actor: str(r.actor),
  action: str(r.action),
  target: strOrNull(r.target),
  ip: strOrNull(r.ip),
  userAgent: strOrNull(r.user_agent),
  createdAt: num(r.created_at),
  details: JSON.parse(str(r.details)),
});

export const toProviderConfig = (r: Row): ProviderConfigRecord => ({
  id: str(r.id),
  orgId: str(r.org_id),
  ownerUserId: strOrNull(r.owner_user_id),
  provider: str(r.provider),
  name: str(r.name),
  baseUrl: strOrNull(r.base_url),
  country: strOrNull(r.country),
  format: r.format as ProviderFormat,
  models: JSON.parse(str(r.models)),
  limits: JSON.parse(str(r.limits)),
  settings: JSON.parse(str(r.settings)),
  secretCiphertext: str(r.secret_ciphertext),
  keyHint: str(r.key_hint),
  createdAt: num(r.created_at),
  updatedAt: num(r.updated_at),
  ...(r.disabled_at !== null && r.disabled_at !== undefined
    ? { disabled: { at: num(r.disabled_at), reason: str(r.disabled_reason) } }
    : {}),
});

export const toNotification = (r: Row): Notification => ({
  id: str(r.id),
  orgId: str(r.org_id),
  kind: str(r.kind),
  severity: r.severity as Notification["severity"],
  title: str(r.title),
  body: JSON.parse(str(r.body)),
  createdAt: num(r.created_at),
});

/** A notification joined with one reader's mark (`read_at` from notification_reads). */
export const toReaderNotification = (r: Row): ReaderNotification => ({ ...toNotification(r), readAt: numOrNull(r.read_at) });

export const toUsageHourly = (r: Row): UsageHourly => ({
  orgId: str(r.org_id),
  hour: num(r.hour),
  keyId: str(r.key_id),
  provider: str(r.provider),
  model: str(r.model),
  requests: num(r.requests),
  errors: num(r.errors),
  promptTokens: num(r.prompt_tokens),
  completionTokens: num(r.completion_tokens),
  costMicros: num(r.cost_micros),
  latencyMsSum: num(r.latency_ms_sum),
  cacheReadTokens: num(r.cache_read_tokens),
  cacheWriteTokens: num(r.cache_write_tokens),
});

export const toUsageEvent = (r: Row): UsageEvent => ({
  id: str(r.id),
  requestId: str(r.request_id),
  orgId: str(r.org_id),
  keyId: strOrNull(r.key_id),
  userId: strOrNull(r.user_id),
  provider: str(r.provider),
  model: str(r.model),
  promptTokens: num(r.prompt_tokens),
  completionTokens: num(r.completion_tokens),
  costMicros: num(r.cost_micros),
  latencyMs: num(r.latency_ms),
  status: num(r.status),
  errorCode: strOrNull(r.error_code),
  createdAt: num(r.created_at),
  attempts: num(r.attempts),
  priceEstimated: num(r.price_estimated) === 1,
  applicationId: strOrNull(r.application_id),
  cacheReadTokens: num(r.cache_read_tokens),
  cacheWriteTokens: num(r.cache_write_tokens),
});

/** The usage_events columns, in the order `usageEventParams` fills them. */
export const USAGE_EVENT_COLUMNS = [
  "id",
  "request_id",
  "org_id",
  "key_id",
  "user_id",
  "provider",
  "model",
  "prompt_tokens",
  "completion_tokens",
  "cost_micros",
  "latency_ms",
  "status",
  "error_code",
  "created_at",
  "price_estimated",
  "application_id",
  "attempts",
  "cache_read_tokens",
  "cache_write_tokens",
] as const;

/**
 * The columns a run of events often has in common (a batch is mostly runs of one caller's
 * calls), each a bit of a mask: a store may bind such a column once for a whole multi-row
 * statement instead of once a row (for SQLite, about a tenth of a flushed row's CPU).
 */
export const SHAREABLE_COLUMNS = [
  ["org_id", 1],
  ["key_id", 2],
  ["provider", 4],
  ["model", 8],
] as const;

/** The mask of SHAREABLE_COLUMNS that every event of events[from..to) has alike. */
export function sharedColumns(events: readonly UsageEvent[], from: number, to: number): number {
  const first = events[from] as UsageEvent;
  let mask = 15;
  for (let j = from + 1; j < to && mask !== 0; j++) {
    const e = events[j] as UsageEvent;
    if (e.orgId !== first.orgId) mask &= ~1;
    if (e.keyId !== first.keyId) mask &= ~2;
    if (e.provider !== first.provider) mask &= ~4;
    if (e.model !== first.model) mask &= ~8;
  }
  return mask;
}

/** How many columns a mask shares: its bits set. */
const SHARED_COUNT = [0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4];

/**
 * The bound values of events[from..to) for a multi-row INSERT, filled in place (a flush
 * writes thousands): the `shared` columns (a sharedColumns mask) first, once, from the
 * first event, in SHAREABLE_COLUMNS order; then each row's other columns in
 * USAGE_EVENT_COLUMNS order.
 */
export function usageEventParams(events: readonly UsageEvent[], from: number, to: number, shared = 0): unknown[] {
  const once = SHARED_COUNT[shared] as number;
  const params: unknown[] = new Array(once + (to - from) * (USAGE_EVENT_COLUMNS.length - once));
  let k = 0;
  if (shared !== 0) {
    const first = events[from] as UsageEvent;
    if (shared & 1) params[k++] = first.orgId;
    if (shared & 2) params[k++] = first.keyId;
    if (shared & 4) params[k++] = first.provider;
    if (shared & 8) params[k++] = first.model;
  }
  for (let j = from; j < to; j++) {
    const e = events[j] as UsageEvent;
    params[k++] = e.id;
    params[k++] = e.requestId;
    if ((shared & 1) === 0) params[k++] = e.orgId;
    if ((shared & 2) === 0) params[k++] = e.keyId;
    params[k++] = e.userId;
    if ((shared & 4) === 0) params[k++] = e.provider;
    if ((shared & 8) === 0) params[k++] = e.model;
    params[k++] = e.promptTokens;
    params[k++] = e.completionTokens;
    params[k++] = e.costMicros;
    params[k++] = e.latencyMs;
    params[k++] = e.status;
    params[k++] = e.errorCode;
    params[k++] = e.createdAt;
    params[k++] = e.priceEstimated ? 1 : 0;
    params[k++] = e.applicationId ?? null;
    params[k++] = e.attempts ?? 1;
    params[k++] = e.cacheReadTokens ?? 0;
    params[k++] = e.cacheWriteTokens ?? 0;
  }
  return params;
}

export const toWebhookDelivery = (r: Row): WebhookDelivery => ({
  id: str(r.id),
  orgId: str(r.org_id),
  notificationId: str(r.notification_id),
  attempt: num(r.attempt),
  status: numOrNull(r.status),
  error: r.error === null ? null : str(r.error),
  createdAt: num(r.created_at),
});

export const toEtlDocument = (r: Row): EtlDocument => ({
  id: str(r.id),
  orgId: str(r.org_id),
  createdAt: num(r.created_at),
  originalTokens: num(r.original_tokens),
  optimizedTokens: num(r.optimized_tokens),
  costSavingsMicros: num(r.cost_savings_micros),
  transformations: JSON.parse(str(r.transformations)) as string[],
});
