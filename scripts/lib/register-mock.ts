/** Registers a running `gateway mock-provider` as an organization's openai and anthropic providers (used by scripts/start). */
import type { Organization, ProviderConfigRecord } from "../../src/domain/types.ts";
import { CLI_ACTOR, type Identity } from "../../src/domain/identity.ts";
import { keyHint } from "../../src/lib/secret-box.ts";
import { createProvider, type ProviderDeps, updateProvider } from "../../src/services/providers.ts";

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
      const stats = (await (await fetch(`${url}/_mock/stats`, { signal: AbortSignal.timeout(1000) })).json()) as {
        streamsStarted?: unknown;
      };
      if (typeof stats.streamsStarted === "number") return true;
    } catch {
      // not up yet
    }
    if (!stillStarting || Date.now() >= deadline) return false;
    await Bun.sleep(100);
  }
}

/** The command line acts as the organization's first admin, as `gateway init` did. */
async function firstAdmin(deps: ProviderDeps, org: Organization): Promise<Identity> {
  const admin = (await deps.store.listUsers(org.id)).filter((u) => u.role === "admin").sort((a, b) => a.createdAt - b.createdAt)[0];
  if (!admin) throw new Error(`organization ${org.name} has no admin to add providers as`);
  return { kind: "user", id: admin.id, role: "admin", organization: org, user: admin, sessionIdHash: "" };
}

/** The addresses each mock provider is registered at, for a mock at `base`. */
const mockAddress = (name: string, base: string) => (name === MOCK_PROVIDER_NAMES[0] ? `${base}/v1` : base);

/**
 * When `org` has no providers at all, adds the mock as its organization-wide `openai`
 * (chat completions, at `/v1`) and `anthropic` (messages, at the bare origin, as the
 * vendor's SDK expects) providers. Returns what it created; nothing when the
 * organization already has providers, so a real key is never shadowed.
 */
export async function registerMockProviders(deps: ProviderDeps, org: Organization, mockUrl: string): Promise<ProviderConfigRecord[]> {
  if ((await deps.store.listProviderConfigs(org.id)).length > 0) return [];
  const identity = await firstAdmin(deps, org);
  const base = mockUrl.replace(/\/+$/, "");
  return [
    await createProvider(deps, identity, CLI_ACTOR, {
      provider: "openai",
      name: MOCK_PROVIDER_NAMES[0],
      apiKey: MOCK_KEY,
      baseUrl: mockAddress(MOCK_PROVIDER_NAMES[0], base),
      scope: "organization",
    }),
    await createProvider(deps, identity, CLI_ACTOR, {
      provider: "anthropic",
      name: MOCK_PROVIDER_NAMES[1],
      apiKey: MOCK_KEY,
      baseUrl: mockAddress(MOCK_PROVIDER_NAMES[1], base),
      scope: "organization",
    }),
  ];
}

/**
 * Moves the mock providers this script registered (their names and the mock's key
 * say so) to a mock now at `mockUrl` (GW_MOCK_PORT changed). Anything else, a real
 * key included, is left as it is. Returns what it moved.
 */
export async function repointMockProviders(deps: ProviderDeps, org: Organization, mockUrl: string): Promise<ProviderConfigRecord[]> {
  const base = mockUrl.replace(/\/+$/, "");
  const ours = (await deps.store.listProviderConfigs(org.id)).filter(
    (p) => (MOCK_PROVIDER_NAMES as readonly string[]).includes(p.name) && p.keyHint === keyHint(MOCK_KEY),
  );
  const moved: ProviderConfigRecord[] = [];
  for (const p of ours) {
    const address = mockAddress(p.name, base);
    if (p.baseUrl !== address) moved.push(await updateProvider(deps, await firstAdmin(deps, org), CLI_ACTOR, p.id, { baseUrl: address }));
  }
  return moved;
}
