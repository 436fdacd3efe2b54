/**
 * The durable store: the one interface that SQLite (embedded default) and Postgres
 * (scale-out) implement. Every method is async so both fit; the hot path never
 * awaits it except on a key-cache miss. Methods are narrow on purpose: each names
 * one thing the services need, so a second implementation stays small.
 */
import type {
  ApiKeyRecord,
  AuditEntry,
  AuditInput,
  EtlDocument,
  FlushBatch,
  KeyPrincipal,
  LoginLink,
  MemberInvitation,
  Notification,
  OrgPreferences,
  Organization,
  PersonalPreferences,
  ProviderConfigRecord,
  ReaderNotification,
  ServiceAccount,
  Session,
  SignInDomainApproval,
  UsageEvent,
  UsageHourly,
  User,
  UsageDimension,
  UsageSum,
  WebhookDelivery,
} from "../domain/types.ts";
import type { McpStore } from "./mcp-store.ts";

export interface AuditPage {
  entries: AuditEntry[];
  /** Pass as `before` to get the next (older) page; null when there is none. */
  nextBefore: string | null;
}

export interface Store extends McpStore {
  /** Applies pending migrations; idempotent. */
  migrate(): Promise<void>;
  /** A cheap round trip, for /readyz. */
  ping(): Promise<void>;
  /** The master key's check value the database recorded, or null before any start recorded one. */
  masterKeyCheck(): Promise<string | null>;
  /** Records `check` (a value derived from the master key) unless one is; answers the one recorded. */
  claimMasterKeyCheck(check: string, now: number): Promise<string>;
  close(): Promise<void>;

  // Organizations and people
  createOrganization(org: Organization): Promise<void>;
  getOrganization(id: string): Promise<Organization | null>;
  listOrganizations(): Promise<Organization[]>;
  createUser(user: User): Promise<void>;
  getUser(id: string): Promise<User | null>;
  getUserByEmail(email: string): Promise<User | null>;
  listUsers(orgId: string): Promise<User[]>;
  updateUserRole(id: string, role: User["role"]): Promise<User | null>;
  /** Removes a member with their sessions and sign-in links; false when there was none. */
  removeUser(id: string): Promise<boolean>;
  /** Records (or renews) an invitation of `email` into `orgId`. */
  saveInvitation(invitation: MemberInvitation): Promise<void>;
  getInvitation(orgId: string, email: string): Promise<MemberInvitation | null>;
  /** Invitations not yet accepted (the person has not signed in there), expired ones too, oldest first. */
  listPendingInvitations(orgId: string): Promise<MemberInvitation[]>;
  /** The person signed in to `orgId`: their invitation there, if any, is accepted. */
  acceptInvitation(orgId: string, email: string, at: number): Promise<void>;
  /** Drops the invitation of `email` into `orgId` (withdrawn, or its member removed); whether there was one. */
  deleteInvitation(orgId: string, email: string): Promise<boolean>;

  // Service accounts and keys
  createServiceAccount(sa: ServiceAccount): Promise<void>;
  listServiceAccounts(orgId: string): Promise<ServiceAccount[]>;
  /** Deletes a service account and its keys (revoked or not); false when there was none. */
  deleteServiceAccount(id: string): Promise<boolean>;
  createApiKey(key: ApiKeyRecord): Promise<void>;
  getApiKey(id: string): Promise<ApiKeyRecord | null>;
  /** Lifetime spend of a rotated line of keys: the key `spendKeyId` and every key whose `spendKeyId` it is. */
  keyLineSpentMicros(spendKeyId: string): Promise<number>;
  /** The key (revoked or not) with its service account and organization, by value hash. */
  getKeyPrincipalByHash(keyHash: string): Promise<KeyPrincipal | null>;
  listApiKeys(orgId: string, opts: { includeRevoked: boolean }): Promise<ApiKeyRecord[]>;
  /** Sets revokedAt/revokedReason if not yet revoked; returns the record after the change. */
  revokeApiKey(id: string, at: number, reason: string | null): Promise<ApiKeyRecord | null>;
  updateApiKey(id: string, patch: Partial<Pick<ApiKeyRecord, "name" | "spendCapCents" | "monthlyCapCents">>): Promise<ApiKeyRecord | null>;

  /** Approves `domain` for its organization unless it is approved for another one; the domain's approval after the call. */
  approveSignInDomain(approval: SignInDomainApproval): Promise<SignInDomainApproval>;
  getSignInDomainApproval(domain: string): Promise<SignInDomainApproval | null>;
  /** Every approval, by domain. */
  listSignInDomainApprovals(): Promise<SignInDomainApproval[]>;
  /** Withdraws the approval of `domain`; the one withdrawn, or null when there was none. */
  revokeSignInDomain(domain: string): Promise<SignInDomainApproval | null>;

  // Sessions and sign-in links (dashboard)
  createSession(session: Session): Promise<void>;
  getSession(idHash: string): Promise<Session | null>;
  touchSession(idHash: string, at: number): Promise<void>;
  deleteSession(idHash: string): Promise<void>;
  deleteSessionsIdleSince(cutoff: number): Promise<number>;
  /** A user's sessions, most recently used first. */
  listUserSessions(userId: string): Promise<Session[]>;
  /** Ends every session of a user ("sign out everywhere"); returns how many. */
  deleteUserSessions(userId: string): Promise<number>;
  createLoginLink(link: LoginLink): Promise<void>;
  /** Marks the link used and returns it, only if it exists, is unused and unexpired at `at`. */
  consumeLoginLink(tokenHash: string, at: number): Promise<LoginLink | null>;

  // Audit log
  appendAudit(entry: AuditEntry): Promise<void>;
  /** Newest first; `before` is an entry id from a previous page. */
  listAudit(orgId: string, opts: { limit: number; before: string | null }): Promise<AuditPage>;
  /** How many entries of each (action, target) among `actions` were written in [from, to). */
  countAudit(
    orgId: string,
    actions: string[],
    from: number,
    to: number,
  ): Promise<{ action: string; target: string | null; count: number }[]>;

  // Preferences
  getOrgPreferences(orgId: string): Promise<OrgPreferences>;
  setOrgPreferences(orgId: string, prefs: OrgPreferences): Promise<void>;
  getPersonalPreferences(ownerId: string): Promise<PersonalPreferences>;
  setPersonalPreferences(ownerId: string, prefs: PersonalPreferences): Promise<void>;

  // Provider configurations
  /** Writes the configuration unless its organization holds `max` already (atomically: concurrent creates never pass it); false then. */
  createProviderConfig(rec: ProviderConfigRecord, max: number): Promise<boolean>;
  getProviderConfig(id: string): Promise<ProviderConfigRecord | null>;
  listProviderConfigs(orgId: string): Promise<ProviderConfigRecord[]>;
  updateProviderConfig(rec: ProviderConfigRecord): Promise<void>;
  deleteProviderConfig(id: string): Promise<boolean>;
  /** Stops a person's own providers in the organization serving (`disabled`); returns those it disabled. */
  disableUserProviders(orgId: string, userId: string, at: number, reason: string): Promise<ProviderConfigRecord[]>;

  // Usage (write-behind)
  /**
   * Commits one flush in a single transaction: inserts the usage events, adds them to
   * the hourly roll-ups, and adds each key touch to its key row (requestCount,
   * spentMicros, lastUsedAt as the later of the two).
   */
  writeFlush(batch: FlushBatch): Promise<void>;
  countUsageEvents(orgId: string): Promise<number>;
  /** An organization's raw usage events, oldest first (ties by id): what a test or an export reads back. */
  listUsageEvents(orgId: string): Promise<UsageEvent[]>;
  listUsageHourly(orgId: string, from: number, to: number): Promise<UsageHourly[]>;
  /**
   * The roll-ups of [from, to) summed by the given dimensions (none: one total row,
   * absent when empty), optionally for one provider. Aggregated by the database, so a
   * 90-day view reads a few hundred sums, not every hourly row. The application
   * (dimension or filter) is known to the daily roll-up only: it needs whole UTC days
   * and no key dimension (anything else throws). With `top`, only that many groups, the
   * most costly first.
   */
  sumUsage(
    orgId: string,
    from: number,
    to: number,
    opts: { by: UsageDimension[]; provider: string | null; application?: string | null; top?: number },
  ): Promise<UsageSum[]>;
  /**
   * Sum of cost for a key's rotated line (the key `keyId` and its successors; the whole
   * organization with keyId null) since `from`, rounded down to its hour (read from the roll-ups).
   */
  sumCostMicros(orgId: string, keyId: string | null, from: number): Promise<number>;
  /** Deletes raw usage events older than `cutoff`; roll-ups are kept. */
  pruneUsageEvents(cutoff: number): Promise<number>;
  /** Forgets the ids of flushes written before `cutoff` (a batch retried after that would be added again). */
  pruneUsageFlushes(cutoff: number): Promise<number>;
  /** Removes audit entries older than `cutoff` (ms); returns how many. */
  pruneAuditEntries(cutoff: number): Promise<number>;

  // Notifications
  /** False when a notification with this id exists already (nothing is changed): how an alert meant once stays once across nodes. */
  createNotification(n: Notification): Promise<boolean>;
  listNotifications(orgId: string, limit: number): Promise<Notification[]>;
  /**
   * Newest first, each with when `reader` (`user:<id>` or `sa:<id>`) marked it read;
   * `unreadOnly` leaves out those the reader has read. Other readers' marks never show.
   */
  listNotificationsFor(orgId: string, reader: string, opts: { limit: number; unreadOnly: boolean }): Promise<ReaderNotification[]>;
  /** Marks the organization's notifications read for `reader` alone (the given ids, or all with null); returns how many were unread for them. */
  markNotificationsRead(orgId: string, reader: string, ids: string[] | null, at: number): Promise<number>;
  /**
   * Removes notifications created before `cutoff` (ms) with their read marks, and webhook deliveries made before it;
   * returns how many notifications. Notifications of `keep.kinds` created at or after `keep.since` stay whatever
   * the cutoff, with their marks and deliveries (a budget threshold's row is what makes it announced once).
   */
  pruneNotifications(cutoff: number, keep?: { kinds: readonly string[]; since: number }): Promise<number>;

  // Alert webhooks
  /** Replaces the organization's sealed webhook signing secret. */
  setWebhookSecret(orgId: string, sealed: string, at: number): Promise<void>;
  getWebhookSecret(orgId: string): Promise<string | null>;
  recordWebhookDelivery(d: WebhookDelivery): Promise<void>;
  /** Newest first. */
  listWebhookDeliveries(orgId: string, limit: number): Promise<WebhookDelivery[]>;
  /** Every recorded attempt of these notifications of the organization (each has at most a handful), oldest first. */
  listWebhookDeliveriesOf(orgId: string, notificationIds: string[]): Promise<WebhookDelivery[]>;

  // Context optimizer (ETL) figures
  /** Writes the document's row and adds it to its organization's running totals, in one transaction. */
  recordEtlDocument(d: EtlDocument): Promise<void>;
  /** Newest first (ties by id). */
  listEtlDocuments(orgId: string, limit: number): Promise<EtlDocument[]>;
  /**
   * The running totals over every document the organization ever recorded, pruned ones
   * included, and how many times each transformation was applied: a row per organization
   * and per name, however many documents there were.
   */
  getEtlTotals(orgId: string): Promise<EtlTotals>;
  /**
   * Removes document rows created before `cutoff` (ms), except each organization's `keepNewest`
   * (at least 1) newest and any made at the same time as the last of those, so what the metrics
   * list stays; the totals are kept. Returns how many.
   */
  pruneEtlDocuments(cutoff: number, keepNewest: number): Promise<number>;
}

/** An organization's running ETL totals (zeros before its first document). */
export interface EtlTotals {
  documents: number;
  originalTokens: number;
  optimizedTokens: number;
  costSavingsMicros: number;
  /** Times each transformation name was applied. */
  transformations: Record<string, number>;
}

export type { AuditInput };
