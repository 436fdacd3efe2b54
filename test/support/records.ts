/**
 * Store records for tests that write them directly: a key, a usage event and a provider
 * configuration with every field filled, so a test names only what it is about (`over`), and a field added to
 * either type is added here once.
 */
import { newId } from "../../src/domain/ids.ts";
import type { ApiKeyRecord, ProviderConfigRecord, UsageEvent } from "../../src/domain/types.ts";

/** A live, uncapped, unused key of `serviceAccountId`, created now. */
export function apiKeyRecord(orgId: string, serviceAccountId: string, over: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  return {
    id: newId("key"),
    orgId,
    serviceAccountId,
    name: "k",
    keyHash: crypto.randomUUID(),
    keyPrefix: "gw_live_abcd",
    keyType: "live",
    proxyMode: "security_enhanced",
    spendCapCents: null,
    monthlyCapCents: null,
    spentMicros: 0,
    requestCount: 0,
    lastUsedAt: null,
    createdAt: Date.now(),
    revokedAt: null,
    revokedReason: null,
    ...over,
  };
}

/** One successful call of `keyId` in `orgId`, 100 micro-dollars, now. */
export function usageEvent(orgId: string, keyId: string | null, over: Partial<UsageEvent> = {}): UsageEvent {
  return {
    id: newId("evt"),
    requestId: crypto.randomUUID(),
    orgId,
    keyId,
    userId: null,
    provider: "openai",
    model: "gpt-4o",
    promptTokens: 10,
    completionTokens: 5,
    costMicros: 100,
    latencyMs: 20,
    status: 200,
    errorCode: null,
    createdAt: Date.now(),
    ...over,
  };
}

/** An organization's OpenAI configuration, owned by no one (organization scope), created at 1. */
export function providerConfigRecord(orgId: string, over: Partial<ProviderConfigRecord> = {}): ProviderConfigRecord {
  return {
    id: newId("prv"),
    orgId,
    ownerUserId: null,
    provider: "openai",
    name: "p",
    baseUrl: null,
    country: "US",
    format: "chat",
    models: [],
    limits: {},
    settings: {},
    secretCiphertext: "c",
    keyHint: "sk-...abcd",
    createdAt: 1,
    updatedAt: 1,
    ...over,
  };
}
