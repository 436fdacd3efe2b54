/**
 * The usual end-to-end setup in one call: the project's mock provider, an organization
 * initialized in a fresh data folder, the gateway serving it, and the provider
 * configurations at the mock the file asks for (provider-configs.ts); and its teardown.
 * Both run inside the test process; `startProcessStack` spawns them as the real
 * commands, for tests of signals and shutdown.
 */
import { afterAll, beforeAll } from "bun:test";
import {
  type InitResult,
  removeDir,
  type RunningGateway,
  type RunningMock,
  startGatewayWithOrg,
  startMockProvider,
  tempDataDir,
} from "./gateway-process.ts";
import { type GatewayUnderTest, type InProcessGateway, initOrgInProcess, startGatewayInProcess, startMockInProcess } from "./in-process.ts";
import { createProvidersAtMock, type ProviderAtMock } from "./provider-configs.ts";

export interface StackOptions {
  mockArgs?: string[];
  env?: Record<string, string>;
  adminEmail?: string;
  /** Configurations at the mock, created in this order with the organization's key (a refused one fails the set-up). */
  providers?: readonly ProviderAtMock[];
}

export interface Stack {
  mock: RunningMock;
  org: InitResult;
  /** In this process: its runtime and app are there for tests that reach past HTTP. */
  gw: InProcessGateway;
}

export async function startStack(opts: StackOptions = {}): Promise<Stack> {
  const mock = startMockInProcess(opts.mockArgs);
  const dataDir = tempDataDir();
  const org = await initOrgInProcess(dataDir, opts.adminEmail);
  const gw = await startGatewayInProcess({ dataDir, env: opts.env });
  await createProvidersAtMock(gw, org.apiKey, mock.url, opts.providers ?? []);
  return { mock, org, gw };
}

/** The same setup as processes: `gateway mock-provider`, `gateway init`, `gateway serve`. */
export async function startProcessStack(opts: StackOptions = {}): Promise<{ mock: RunningMock; org: InitResult; gw: RunningGateway }> {
  const mock = await startMockProvider(opts.mockArgs);
  const { org, gw } = await startGatewayWithOrg(opts);
  await createProvidersAtMock(gw, org.apiKey, mock.url, opts.providers ?? []);
  return { mock, org, gw };
}

/** Stops the gateway (it drains and flushes, as on SIGTERM) and the mock, and removes the data folder. */
export async function stopStack(s: { gw: GatewayUnderTest; mock: RunningMock }): Promise<void> {
  await s.gw.stop();
  await s.mock.stop();
  removeDir(s.gw.dataDir);
}

/**
 * The stack for one test file: started before the file's first test, stopped after its
 * last. Read its fields inside tests (they exist once the file's tests start).
 */
export function stackPerFile(opts: StackOptions = {}): Stack {
  let s: Stack | null = null;
  // A hang guard, not a speed check: the mock, `init` and the gateway start on a loaded machine.
  beforeAll(async () => {
    s = await startStack(opts);
  }, 60_000);
  afterAll(async () => {
    if (s) await stopStack(s);
  });
  const started = (): Stack => {
    if (!s) throw new Error("this file's stack is not started yet: read it inside a test or a hook");
    return s;
  };
  return {
    get mock() {
      return started().mock;
    },
    get org() {
      return started().org;
    },
    get gw() {
      return started().gw;
    },
  };
}
