/**
 * The setup every client-framework file shares: the project's mock provider and the
 * gateway in this process, the mock registered as the organization's `openai` and
 * `anthropic` providers, and two keys to run each library with: a sandbox (`gw_test_`)
 * key, answered by the simulator, and a live key, answered through the mock; the
 * models each library is tried with, and the check that sandbox calls reach no provider.
 */
import { beforeAll, expect } from "bun:test";
import type { RunningMock } from "../support/gateway-process.ts";
import { clientStackPerFile } from "../support/client-stack.ts";

export type KeyMode = "sandbox" | "live";
/** Sandbox first: its block then proves, on a mock that has seen nothing yet, that no call reached a provider. */
export const KEY_MODES: readonly KeyMode[] = ["sandbox", "live"];

/** The models each library is tried with: one of each route a client can take. */
export const MODELS = {
  /** An OpenAI model, served as chat completions. */
  openai: "gpt-4o-mini",
  /** A messages-format model asked for from an OpenAI-style client: translated both ways. */
  crossFormat: "claude-haiku-4-5",
  /** The router picks the model. */
  auto: "gateway/auto",
  /** A configured provider's name in front of the model. */
  named: "mock-openai/gpt-4o-mini",
  /** A messages-format model for the libraries that speak that format. */
  messages: "claude-haiku-4-5",
  /** The same through the configured messages provider's name. */
  namedMessages: "mock-anthropic/claude-haiku-4-5",
  embedding: "text-embedding-3-small",
} as const;

export interface ClientGateway {
  /** The gateway's origin, `http://127.0.0.1:<port>` (the Anthropic SDK's and ChatAnthropic's base URL). */
  readonly origin: string;
  /** `<origin>/v1`: the OpenAI SDK's base URL, and `@ai-sdk/anthropic`'s. */
  readonly v1: string;
  key(mode: KeyMode): string;
  readonly mock: RunningMock;
}

/**
 * The shared client stack (test/support/client-stack.ts) for this file, with the mock's
 * configurations named so that `name/model` can address one, and a sandbox key beside the
 * organization's live one. Read the fields inside tests.
 */
export function clientGateway(): ClientGateway {
  const stack = clientStackPerFile({ openai: { name: "mock-openai" }, anthropic: { name: "mock-anthropic" } });
  let sandboxKey = "";
  // Runs after the stack's own beforeAll, which was registered first.
  beforeAll(async () => {
    const sa = await stack.gw.op(stack.org.apiKey, "org.service-account.create", { serviceAccountName: "client-suite", keyType: "test" });
    if (sa.status !== 200) throw new Error(`sandbox key: ${JSON.stringify(sa.body)}`);
    sandboxKey = sa.body.data.apiKey.key;
  });
  return {
    get origin() {
      return stack.gw.url;
    },
    get v1() {
      return `${stack.gw.url}/v1`;
    },
    key: (mode) => (mode === "sandbox" ? sandboxKey : stack.org.apiKey),
    get mock() {
      return stack.mock;
    },
  };
}

/** What reached the mock: every request's credentials, for the checks below. */
async function seenKeys(mock: RunningMock): Promise<string[]> {
  return (await mock.requests()).map((r) => `${r.authorization ?? ""} ${r.apiKey ?? ""}`);
}

/**
 * The guard of a mode's block: sandbox calls leave the mock's log as empty as it was
 * (the sandbox block runs first, on a fresh mock), and live calls reach it with the
 * provider's key, never a gateway key.
 */
export async function expectProviderTraffic(gw: ClientGateway, mode: KeyMode): Promise<void> {
  const keys = await seenKeys(gw.mock);
  for (const k of keys) expect(k).not.toContain("gw_test_");
  if (mode === "sandbox") expect(keys).toEqual([]);
  else {
    expect(keys.length).toBeGreaterThan(0);
    for (const k of keys) expect(k).not.toContain(gw.key("live"));
  }
}

/** A well-formed gateway key that no organization holds: every library should surface the 401. */
export const UNKNOWN_KEY = `gw_live_${"0".repeat(40)}`;
