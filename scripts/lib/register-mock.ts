/** Registers a running `gateway mock-provider` as an organization's openai and anthropic providers (used by scripts/start). */
import type { Organization, ProviderConfigRecord } from "../../src/domain/types.ts";
import { CLI_ACTOR, type Identity } from "../../src/domain/identity.ts";
import { createProvider, type ProviderDeps } from "../../src/services/providers.ts";

/** The mock accepts any key; this one only fills the required field and says what it is. */
const MOCK_KEY = "mock-provider-accepts-any-key";

/** The names they get, so `provider.list` and `x-gw-provider` say plainly who answered. */
export const MOCK_PROVIDER_NAMES = ["mock-openai", "mock-anthropic"] as const;

/**
 * Is a mock provider answering at `url`? Polls until `timeoutMs`, or until `starting()`
 * says the mock being started has exited (its port was taken, say). A server that is
 * not a mock does not count; another mock already on that address does.
 */
export async function mockAnswers(url: string, timeoutMs: number, starting: () => boolean = () => true): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const stillStarting = starting();
    try {
      const stats = (await (await fetch(`${url}/_mock/stats`, { signal: AbortSignal.timeout(1000) })).json()) as { streamsStarted?: unknown };
      if (typeof stats.streamsStarted === "number") return true;
    } catch {
      // not up yet
    }
    if (!stillStarting || Date.now() >= deadline) return false;
    await Bun.sleep(100);
  }
}

/**
 * When `org` has no providers at all, adds the mock as its organization-wide `openai`
 * (chat completions, at `/v1`) and `anthropic` (messages, at the bare origin, as the
 * vendor's SDK expects) providers. Returns what it created; nothing when the
 * organization already has providers, so a real key is never shadowed.
 */
export async function registerMockProviders(deps: ProviderDeps, org: Organization, mockUrl: string): Promise<ProviderConfigRecord[]> {
  if ((await deps.store.listProviderConfigs(org.id)).length > 0) return [];
  const admin = (await deps.store.listUsers(org.id)).filter((u) => u.role === "admin").sort((a, b) => a.createdAt - b.createdAt)[0];
  if (!admin) throw new Error(`organization ${org.name} has no admin to add providers as`);
  // The command line acts as the organization's first admin, as `gateway init` did.
  const identity: Identity = { kind: "user", id: admin.id, role: "admin", organization: org, user: admin, sessionIdHash: "" };
  const base = mockUrl.replace(/\/+$/, "");
  return [
    await createProvider(deps, identity, CLI_ACTOR, { provider: "openai", name: MOCK_PROVIDER_NAMES[0], apiKey: MOCK_KEY, baseUrl: `${base}/v1`, scope: "organization" }),
    await createProvider(deps, identity, CLI_ACTOR, { provider: "anthropic", name: MOCK_PROVIDER_NAMES[1], apiKey: MOCK_KEY, baseUrl: base, scope: "organization" }),
  ];
}
