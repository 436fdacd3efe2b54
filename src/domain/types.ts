/**
 * The gateway's records, as the services and the storage interface see them.
 * Timestamps are epoch milliseconds inside the process; surfaces render ISO 8601.
 * Money is integer micro-dollars (1 USD = 1_000_000) so sums never drift.
 */

export type Tier = "starter" | "professional" | "enterprise";
export type Role = "admin" | "member";
export type KeyType = "live" | "test";

export interface Organization {
  id: string;
  name: string;
  tier: Tier;
  createdAt: number;
}

export interface User {
  id: string;
  orgId: string;
  email: string;
  role: Role;
  createdAt: number;
}

/** An address invited into an organization; pending until that person first signs in there (never, if another organization holds it). */
export interface MemberInvitation {
  orgId: string;
  email: string;
  role: Role;
  createdAt: number;
  /** Past this time an invitation not yet accepted no longer lets its address sign in (re-inviting renews it). */
  expiresAt: number;
  acceptedAt: number | null;
}

/** The operator's word that `orgId` owns `domain`: on a gateway of several organizations, its first-time sign-ins join only there. */
export interface SignInDomainApproval {
  domain: string;
  orgId: string;
  approvedAt: number;
}

export interface ServiceAccount {
  id: string;
  orgId: string;
  name: string;
  description: string;
  role: Role;
  /** Id of the user who created it (null when created by the command line before any user existed). */
  createdBy: string | null;
  createdAt: number;
}

export interface ApiKeyRecord {
  id: string;
  orgId: string;
  serviceAccountId: string;
  name: string;
  /** HMAC-SHA256 of the key value, hex. The value itself is never stored. */
  keyHash: string;
  /** First characters of the value (`gw_live_AbCd`), safe to show so people can tell keys apart. */
  keyPrefix: string;
  keyType: KeyType;
  proxyMode: string;
  spendCapCents: number | null;
  monthlyCapCents: number | null;
  spentMicros: number;
  /** The first key of a rotated line, whose caps this key shares (absent: the key is its own). */
  spendKeyId?: string;
  requestCount: number;
  lastUsedAt: number | null;
  createdAt: number;
  revokedAt: number | null;
  revokedReason: string | null;
}

/** What authentication needs on the hot path: the key joined with its owner. Cached by key hash. */
export interface KeyPrincipal {
  key: ApiKeyRecord;
  serviceAccount: ServiceAccount;
  organization: Organization;
}

export interface Session {
  /** SHA-256 of the random session id that lives in the cookie. */
  idHash: string;
  userId: string;
  createdAt: number;
  lastSeenAt: number;
}

export interface LoginLink {
  tokenHash: string;
  userId: string;
  expiresAt: number;
  usedAt: number | null;
}

export interface AuditEntry {
  id: string;
  orgId: string;
  /** `user:<id>`, `sa:<id>` or `cli`. */
  actor: string;
  action: string;
  target: string | null;
  ip: string | null;
  userAgent: string | null;
  createdAt: number;
  details: Record<string, unknown>;
}

export type AuditInput = Omit<AuditEntry, "id" | "createdAt">;

/** One model call. Never carries prompt or completion text. */
export interface UsageEvent {
  id: string;
  requestId: string;
  orgId: string;
  keyId: string | null;
  userId: string | null;
  provider: string;
  model: string;
  promptTokens: number;
  completionTokens: number;
  costMicros: number;
  latencyMs: number;
  status: number;
  errorCode: string | null;
  /** Priced at its family's ceiling: the model is not in the catalog. */
  priceEstimated?: boolean;
  createdAt: number;
  /** The caller's application (request context or `x-gw-application`), when it named one. */
  applicationId?: string | null;
  /** Which attempt at a provider this was within its request: the answering row's is how many the call took (absent: 1). */
  attempts?: number;
  /** Of `promptTokens`, those the provider's prompt cache served (absent: 0). */
  cacheReadTokens?: number;
  /** Of `promptTokens`, those written to the provider's prompt cache, long-lived ones included (absent: 0). */
  cacheWriteTokens?: number;
}

/** Per-key counters accumulated in memory and added to the key row at flush time. */
export interface KeyTouch {
  keyId: string;
  lastUsedAt: number;
  requests: number;
  spendMicros: number;
}

/** Everything one write-behind flush commits, in one transaction. */
export interface FlushBatch {
  /** Random, kept through retries: the store records it with the batch and skips a batch it already holds. */
  id: string;
  events: UsageEvent[];
  keyTouches: KeyTouch[];
}

export interface Notification {
  id: string;
  orgId: string;
  kind: string;
  severity: "info" | "warning" | "critical";
  title: string;
  body: Record<string, unknown>;
  createdAt: number;
}

/** A notification as one reader sees it: read marks are per reader (a user, or a service account). */
export interface ReaderNotification extends Notification {
  /** When this reader marked it read; null while unread for them. */
  readAt: number | null;
}

/** A dimension the hourly roll-ups can be summed by. */
export type UsageDimension = "day" | "provider" | "model" | "key" | "application";

/**
 * Roll-up rows summed by some dimensions: the row shape of UsageHourly, with the
 * dimensions not grouped by left empty ("" or, for the hour, the UTC day's start
 * when grouped by day, else 0).
 */
export type UsageSum = UsageHourly & { applicationId: string };

/** One attempt to post a notification to an organization's webhook. */
export interface WebhookDelivery {
  id: string;
  orgId: string;
  notificationId: string;
  attempt: number;
  /** The receiver's HTTP status; null when no answer came. */
  status: number | null;
  /** Why the attempt failed (never a response body); null on success. */
  error: string | null;
  createdAt: number;
}

/** The figures of one optimized document or request: counts only, never text. */
export interface EtlDocument {
  id: string;
  orgId: string;
  createdAt: number;
  originalTokens: number;
  optimizedTokens: number;
  costSavingsMicros: number;
  transformations: string[];
}

export type PiiAction = "redact" | "block";
export type InjectionAction = "block" | "flag";

/** The scanner's action per category (scanning itself is always on); `pii` is the same setting as `piiAction`. */
export interface ScanPolicy {
  /** `block`: sure injections are refused, suspected ones flagged; `flag`: all are forwarded and flagged. */
  injection: InjectionAction;
  secrets: "block";
  pii: PiiAction;
}
export type RouteStrategy = "cost" | "speed" | "quality" | "balanced";

/** Organization-wide settings; only admins change them. */
export interface OrgPreferences {
  monthlyBudgetCents: number | null;
  piiAction: PiiAction;
  alertWebhookUrl: string | null;
  defaultRouteStrategy: RouteStrategy;
  /** Models to try, in order, when a named model's provider fails (model id -> fallback model ids). */
  fallbackModels: Record<string, string[]>;
  /** E-mail domains whose verified addresses may join as members at their first sign-in. */
  signInEmailDomains: string[];
  /** Run the context optimizer on every chat and messages call (`x-gw-optimize: off` skips one call). */
  contextOptimizer: boolean;
  /** Seconds between this organization's alert checks (at least 30); null: the operator's `GW_ALERT_CHECK_INTERVAL_S`. */
  alertCheckIntervalS: number | null;
  /** The scanner's action per category (domain/scan-policy.ts reads it with `piiAction`). */
  security: ScanPolicy;
  /** Where phone numbers written without `+` are read as national numbers (ISO 3166 alpha-2); organizations have no country of their own, so `US`. */
  phoneRegion: string;
}

/** Personal settings of one identity (user or service account). */
export interface PersonalPreferences {
  timezone: string;
  emailNotifications: boolean;
}

export const DEFAULT_ORG_PREFERENCES: OrgPreferences = {
  monthlyBudgetCents: null,
  piiAction: "redact",
  alertWebhookUrl: null,
  defaultRouteStrategy: "balanced",
  fallbackModels: {},
  signInEmailDomains: [],
  contextOptimizer: false,
  alertCheckIntervalS: null,
  security: { injection: "block", secrets: "block", pii: "redact" },
  phoneRegion: "US",
};

export const DEFAULT_PERSONAL_PREFERENCES: PersonalPreferences = {
  timezone: "UTC",
  emailNotifications: true,
};

export type ProviderFormat = "chat" | "messages" | "bedrock";

export interface ProviderLimits {
  requestsPerMinute?: number;
  tokensPerMinute?: number;
  requestsPerDay?: number;
}

/** A provider configuration as stored: the key only as ciphertext. */
export interface ProviderConfigRecord {
  id: string;
  orgId: string;
  /** null = organization scope. */
  ownerUserId: string | null;
  provider: string;
  name: string;
  baseUrl: string | null;
  country: string | null;
  format: ProviderFormat;
  models: string[];
  limits: ProviderLimits;
  /** Provider-specific non-secret settings (region, api version, deployment map). */
  settings: Record<string, unknown>;
  /** AES-256-GCM sealed credentials (nonce + ciphertext + tag), base64. */
  secretCiphertext: string;
  keyHint: string;
  createdAt: number;
  updatedAt: number;
  /** When it stopped serving (its owner left the organization); an admin deletes it. Absent: serving. */
  disabled?: { at: number; reason: string };
}

/** An hourly roll-up row: analytics read these instead of raw events. */
export interface UsageHourly {
  orgId: string;
  /** Epoch ms of the hour's start (UTC). */
  hour: number;
  keyId: string;
  provider: string;
  model: string;
  requests: number;
  errors: number;
  promptTokens: number;
  completionTokens: number;
  costMicros: number;
  latencyMsSum: number;
  /** Of `promptTokens`, those read from and written to the providers' prompt caches. */
  cacheReadTokens: number;
  cacheWriteTokens: number;
}
