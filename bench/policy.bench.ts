/**
 * The policy stages' own CPU for one call with a 2 KB prompt: authorize (geography
 * and tier), scan (secrets, injection, personal data), reserve spend against a
 * monthly cap (the worst case: the prompt's tokens are counted) and settle. The suite
 * divides this by the gateway's CPU per request for the same body (`chat-2k-50`) to
 * report the policy share.
 *
 *   bun bench/policy.bench.ts [--quick]
 */
import type { ChatCompletionRequest } from "../src/schemas/chat-completions.ts";
import { DEFAULT_ORG_PREFERENCES } from "../src/domain/types.ts";
import { authorizeTarget } from "../src/pipeline/authorize.ts";
import { reserveSpend, type SpendDeps } from "../src/pipeline/reserve-spend.ts";
import { chatTexts } from "../src/pipeline/scan/request-texts.ts";
import { scanRequest } from "../src/pipeline/security-scan.ts";
import { loadCatalog } from "../src/providers/catalog/catalog.ts";
import { PROVIDER_KINDS_INFO } from "../src/providers/catalog/provider-kinds.ts";
import { targetFor } from "../src/providers/target.ts";
import type { Identity } from "../src/domain/identity.ts";
import { MemoryOrgSettings } from "../src/state/org-settings.ts";
import { MemorySpendLedger } from "../src/state/memory-spend-ledger.ts";
import { POLICY_CALL_BODY } from "./scenarios.ts";

export interface PolicyResult {
  /** Microseconds of CPU per call, all policy stages, with a monthly cap on the key. */
  microsPerCall: number;
  /** The same without any cap (nothing to reserve against). */
  microsPerCallUncapped: number;
}

const catalog = loadCatalog(null);
const target = targetFor({
  info: PROVIDER_KINDS_INFO.openai,
  baseUrl: "http://127.0.0.1:9/v1",
  credentials: { type: "api-key", apiKey: "sk-bench" },
  model: "gpt-4o",
  catalogModel: catalog.model("gpt-4o"),
  config: { id: "prv_bench", name: "openai", format: "chat", country: "US", settings: {} },
});

function identity(monthlyCapCents: number | null): Identity {
  const organization = { id: "org_bench", name: "Bench", tier: "enterprise" as const, createdAt: 0 };
  const key = {
    id: "key_bench",
    orgId: organization.id,
    serviceAccountId: "sa_bench",
    name: "k",
    keyHash: "",
    keyPrefix: "gw_live_xxxx",
    keyType: "live" as const,
    proxyMode: "security_enhanced",
    spendCapCents: null,
    monthlyCapCents,
    spentMicros: 0,
    requestCount: 0,
    lastUsedAt: null,
    createdAt: 0,
    revokedAt: null,
    revokedReason: null,
  };
  const serviceAccount = {
    id: "sa_bench",
    orgId: organization.id,
    name: "bench",
    description: null,
    role: "member" as const,
    createdBy: "usr_bench",
    createdAt: 0,
  };
  return { kind: "serviceAccount", id: serviceAccount.id, role: "member", organization, serviceAccount, key } as unknown as Identity;
}

/** One call's policy stages for `who`, on a body as a request would carry it (parsed from JSON, so its strings are flat). */
function policyCall(who: Identity): () => Promise<void> {
  // Totals come from the store once per key; a store that has seen no spend yet.
  const deps: SpendDeps = {
    ledger: new MemorySpendLedger({ keyLifetimeMicros: async () => 0, spentSince: async () => 0 }),
    settings: new MemoryOrgSettings(async () => DEFAULT_ORG_PREFERENCES),
    catalog,
  };
  const body = JSON.parse(JSON.stringify(POLICY_CALL_BODY)) as ChatCompletionRequest & Record<string, unknown>;
  return async () => {
    authorizeTarget(who, target);
    const scanned = scanRequest(body, chatTexts, "redact");
    const reservation = await reserveSpend(deps, who, target, {
      messages: (scanned.body as typeof body).messages,
      maxTokens: body.max_tokens,
    });
    reservation.settle(1234);
  };
}

async function cpuPerCall(call: () => Promise<void>, iterations: number): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < iterations; i++) await call();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / iterations;
}

export async function runPolicyBench(quick = false): Promise<PolicyResult> {
  const iterations = quick ? 500 : 20_000;
  const capped = policyCall(identity(1_000_000));
  const uncapped = policyCall(identity(null));
  // Both warmed up before either is measured, so the JIT favours neither.
  for (let i = 0; i < Math.min(5_000, iterations); i++) {
    await capped();
    await uncapped();
  }
  return { microsPerCall: await cpuPerCall(capped, iterations), microsPerCallUncapped: await cpuPerCall(uncapped, iterations) };
}

if (import.meta.main) console.log(await runPolicyBench(process.argv.includes("--quick")));
